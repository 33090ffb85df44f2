import fs from 'node:fs';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { StoreLocation } from './layout.js';

/*
 * A store says it is large and indexed for search by a file beside its tables (StoreLocation.searchIndexes).
 * Searches read this instead of opening the store to ask, so a one-shot search of a small store never loads it.
 */

/** Whether the store is searched through its indexes rather than in memory. */
export function isLargeStore(location: Pick<StoreLocation, 'searchIndexes'>): boolean {
  return fs.existsSync(location.searchIndexes);
}

export function markLargeStore(location: Pick<StoreLocation, 'searchIndexes'>, chunks: number): void {
  if (!isLargeStore(location)) writeFileAtomic(location.searchIndexes, JSON.stringify({ chunks, at: new Date().toISOString() }) + '\n');
}
