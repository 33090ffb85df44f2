import crypto, { createHash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';

/** A string is hashed as its UTF-8. */
const sha256Hex: (data: string | Uint8Array) => string = typeof crypto.hash === 'function' ? (data) => crypto.hash('sha256', data) : (data) => createHash('sha256').update(data).digest('hex');

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

/** A string column as Arrow holds one: UTF-8 bytes, and where each row starts (`valueOffsets[row]`). */
export interface Utf8Bytes {
  valueOffsets: Int32Array;
  values: Uint8Array;
}

/**
 * The key of each row of these string columns, hashed from their bytes without decoding them: contentKey(a, b)
 * hashes the UTF-8 of the parts joined by NUL (as rowSays joins a key and search words), which a row's bytes are already when each
 * part is valid UTF-8 (decoding and encoding again gives them back). A row that is not is keyed from `decoded`,
 * its parts as the caller reads strings.
 */
export function keysOfBytes(columns: Utf8Bytes[], decoded: (row: number) => string[]): (row: number) => string {
  let scratch = Buffer.alloc(SCRATCH_BYTES);
  return (row) => {
    const parts = columns.map((column) => slice(column, row));
    if (!parts.every((part) => isUtf8(part))) return sha256Hex(decoded(row).join('\0')).slice(0, 40);
    const n = parts.reduce((sum, part) => sum + part.length, parts.length - 1);
    if (scratch.length < n) scratch = Buffer.alloc(n * 2);
    let at = 0;
    parts.forEach((part, i) => {
      if (i > 0) scratch[at++] = 0;
      scratch.set(part, at);
      at += part.length;
    });
    return sha256Hex(scratch.subarray(0, n)).slice(0, 40);
  };
}

/** Enough for most chunks' breadcrumb and text; a longer one grows it. */
const SCRATCH_BYTES = 64 * 1024;

const slice = (column: Utf8Bytes, row: number) => column.values.subarray(column.valueOffsets[row], column.valueOffsets[row + 1]);
