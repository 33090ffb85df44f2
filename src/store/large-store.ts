import fs from 'node:fs';
import { largeStoreChunks } from '../config/environment.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { readFields } from './chunk-batch.js';
import type { ChunkReader } from './contract.js';
import type { StoreLocation } from './layout.js';

/**
 * The most chunks one view (the files one search looks at) is ranked over in memory, exactly; a view of this many
 * or more is searched through the store's indexes instead, among candidates. Decided by what is searched, not by
 * what is stored: history piles up chunks no view sees. Measured on 2 cores: restoring the in-memory set costs a
 * process 6–9 µs and ~1.7 KB of snapshot per chunk; sympy's 2,051 files (42,648 chunks) are searched exactly by a
 * one-shot CLI search in 1.0–1.3 s and 160 MB, under the 2.5 s a one-shot search through the indexes takes (it
 * loads them), while the approximate vector index found only ~0.9 of the exact top 10. Kept at 50,000 (~1.5 s one-shot by that measure):
 * exact answers are worth the time up to there; beyond, restore time and memory grow with the view while the
 * indexed search's barely do.
 */
export const LARGE_VIEW_CHUNKS = largeStoreChunks() ?? 50_000;

/*
 * A store is large once a view of LARGE_VIEW_CHUNKS was indexed in it: it then has search indexes (vector and full
 * text), and says so by a file beside its tables (StoreLocation.searchIndexes). Searches read this instead of
 * opening the store to ask, so a one-shot search of a store without large views never loads it.
 */

/** Whether the store has the indexes a large view is searched through. */
export function isLargeStore(location: Pick<StoreLocation, 'searchIndexes'>): boolean {
  return fs.existsSync(location.searchIndexes);
}

export function markLargeStore(location: Pick<StoreLocation, 'searchIndexes'>, chunks: number): void {
  if (!isLargeStore(location)) writeFileAtomic(location.searchIndexes, JSON.stringify({ chunks, at: new Date().toISOString() }) + '\n');
}

/**
 * How many chunks the store holds of these blobs, counted only up to `limit`: callers ask whether a view fits,
 * and a large view's count stops after reading `limit` of its rows' blob names (one column, no vectors).
 */
export async function countChunksOf(store: ChunkReader, blobs: ReadonlySet<string>, limit: number): Promise<number> {
  if (blobs.size === 0 || limit <= 0) return 0;
  let count = 0;
  // chunkColumns may answer a long list with every row: the rows of other blobs are not counted.
  for await (const batch of store.chunkColumns([...blobs], ['blob'])) {
    const { blob } = readFields(batch, ['blob']);
    for (let i = 0; i < batch.numRows; i++) if (blobs.has(blob(i)) && ++count >= limit) return count;
  }
  return count;
}
