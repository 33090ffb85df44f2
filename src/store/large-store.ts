import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';

/**
 * Where a store says it is large and indexed for search. Searches read this instead of opening LanceDB to ask,
 * so a one-shot search of a small store never loads it.
 */
function markerFile(lanceDir: string): string {
  return path.join(lanceDir, '..', LARGE_STORE_MARKER);
}

export const LARGE_STORE_MARKER = 'search-indexes.json';

/** Whether the store behind this LanceDB folder is searched through its indexes rather than in memory. */
export function isLargeStore(lanceDir: string): boolean {
  return fs.existsSync(markerFile(lanceDir));
}

export function markLargeStore(lanceDir: string, chunks: number): void {
  if (!isLargeStore(lanceDir)) writeFileAtomic(markerFile(lanceDir), JSON.stringify({ chunks, at: new Date().toISOString() }) + '\n');
}
