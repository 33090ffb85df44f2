import crypto, { createHash } from 'node:crypto';

const sha256Hex: (text: string) => string = typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text) : (text) => createHash('sha256').update(text).digest('hex');

/**
 * The key a chunk's content is stored under: the same breadcrumb and text always give the same key, so a function
 * that many blobs share (a file's unchanged parts across commits and branches) is stored and embedded once. The
 * vector and search words are functions of exactly these two (embedding text: breadcrumb + "\n" + text), and a
 * store holds one model's vectors (store.json), so the model needs no place in the key. A NUL keeps the parts
 * apart (text with one is binary and never chunked), so no other breadcrumb/text split of the same characters
 * shares a key: each content row shows the breadcrumb and text of every chunk referencing it.
 */
export function contentKey(symbol: string, text: string): string {
  return sha256Hex(`${symbol}\0${text}`).slice(0, 40);
}
