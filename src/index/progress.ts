import type { BlobProgress } from './embed-blobs.js';

/**
 * How far a run is, 0..100, from what it reported. Listing and comparing with the store take the first 2 %; the
 * blobs take 2..95 %, each counting a fifth when chunked, three fifths as it is embedded (the slow part) and
 * the last fifth once stored; building the search indexes takes 95..99 %. Only the run's end says 100.
 */
export function progressPercent(p: BlobProgress): number {
  if (p.phase === 'listing') return 0;
  if (p.phase === 'search-index') return 95;
  if (p.blobsTotal === 0) return 2;
  const chunked = p.blobsChunked ?? p.blobsDone;
  const embedded = p.blobsEmbedded ?? p.blobsDone;
  const work = (0.2 * chunked + 0.6 * embedded + 0.2 * p.blobsDone) / p.blobsTotal;
  return Math.min(95, Math.floor(2 + 93 * work));
}
