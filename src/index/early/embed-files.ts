import { POOL_MIN_BATCH, type Embedder } from '../../embed/index.js';
import { BlobReader } from '../../git/blobs.js';
import type { Chunk } from '../../chunk/types.js';
import type { MarkReason } from '../../store/blob-state.js';
import type { BlobMark, ChunkRow } from '../../store/contract.js';
import { chunksOfBlob } from '../blob-chunks.js';
import { embedContents, rowsOf, type BlobToIndex, type PendingChunk } from '../embed-blobs.js';

/** Chunks embedded in memory, as an index run would store them: each with its content key; and blobs that yield none. */
export interface EmbeddedFiles {
  rows: (ChunkRow & { key: string })[];
  marks: BlobMark[];
  /** Each blob read, by the path it was chunked as (its language): its chunks or why none, for the index run to take over (hand-off.ts). */
  chunked: { blob: string; path: string; content: { chunks: Chunk[] } | { reason: MarkReason } }[];
}

/**
 * Contents go to the embedder in slices below its worker pool's batch, so they are embedded on this thread from
 * the rows of the table they need: in a process that never embedded, the pool first reads the whole table and
 * starts its workers, which made 1,452 contents of tokio take 7.0 s instead of 1.9 s (both 0.8 s once warm).
 */
const SLICE = POOL_MIN_BATCH - 1;

/**
 * Reads, chunks and embeds these blobs in memory with the index run's own pieces (the chunker, the rows it
 * stores, the embedding text): nothing is written. Each content is embedded once.
 */
export async function embedFiles(root: string, embedder: Embedder, blobs: BlobToIndex[], maxLineChars: number): Promise<EmbeddedFiles> {
  const reader = new BlobReader(root);
  const rows: PendingChunk[] = [];
  const marks: BlobMark[] = [];
  const chunked: EmbeddedFiles['chunked'] = [];
  const first = new Map<string, PendingChunk>();
  const embedding: Promise<number>[] = [];
  let slice: PendingChunk[] = [];
  const flush = () => {
    if (slice.length) embedding.push(embedContents(slice, new Set(slice.map((r) => r.key)), embedder));
    slice = [];
  };
  try {
    const reads = blobs.map((b) => reader.read(b.blob));
    // A read that fails is awaited below; none is left to reject unheard meanwhile.
    for (const r of reads) r.catch(() => undefined);
    for (const [i, b] of blobs.entries()) {
      const content = await chunksOfBlob(b.path, await reads[i], maxLineChars);
      chunked.push({ blob: b.blob, path: b.path, content });
      if ('reason' in content) {
        marks.push({ blob: b.blob, reason: content.reason });
        continue;
      }
      for (const row of rowsOf([{ blob: b.blob, chunks: content.chunks }], embedder)) {
        rows.push(row);
        if (first.has(row.key)) continue;
        first.set(row.key, row);
        slice.push(row);
        if (slice.length >= SLICE) flush();
      }
    }
    flush();
  } finally {
    await reader.close();
    await Promise.allSettled(embedding);
  }
  await Promise.all(embedding);
  return { rows: rows.map((r) => ({ ...r, vector: first.get(r.key)!.vector!, terms: first.get(r.key)!.terms! })), marks, chunked };
}
