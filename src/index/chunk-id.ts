import crypto, { createHash } from 'node:crypto';

/** One-shot hashing where Node has it (20.12+): importing checks every row's id, twice as fast as a Hash per id. */
const sha256Hex: (text: string) => string = typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text) : (text) => createHash('sha256').update(text).digest('hex');

/** Deterministic chunk id: the same blob, chunker, model and span always give the same id, on any machine. */
export function chunkId(blob: string, chunkerVersion: string, modelId: string, startLine: number, endLine: number): string {
  return sha256Hex(`${blob}\0${chunkerVersion}\0${modelId}\0${startLine}\0${endLine}`).slice(0, 40);
}

/** Stable hash of the settings that decide which paths are indexed and how; part of every manifest. */
export function settingsKey(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}
