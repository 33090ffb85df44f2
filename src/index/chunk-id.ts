import { createHash } from 'node:crypto';

/** Deterministic chunk id: the same blob, chunker, model and span always give the same id, on any machine. */
export function chunkId(blob: string, chunkerVersion: string, modelId: string, startLine: number, endLine: number): string {
  return createHash('sha256').update(`${blob}\0${chunkerVersion}\0${modelId}\0${startLine}\0${endLine}`).digest('hex').slice(0, 40);
}

/** Stable hash of the settings that decide which paths are indexed and how; part of every manifest. */
export function settingsKey(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}
