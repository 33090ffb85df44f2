import type { Chunk } from '../chunk/types.js';
import type { MarkReason } from '../store/blob-state.js';
import type { IndexIdentity } from '../store/identity.js';

/**
 * Work an index run is handed instead of doing it (a one-shot search's early answer, early/hand-off.ts): blobs
 * chunked already and contents embedded already.
 */
export interface HandedChunks {
  /** A blob's chunks (or why it has none) as they were made, when the blob was chunked as this same path. */
  chunksOf(b: { blob: string; path: string }): { chunks: Chunk[] } | { reason: MarkReason } | undefined;
  /** Vector and words of each content embedded, by content key. */
  contents: ReadonlyMap<string, { vector: Float32Array; terms: string }>;
  /** Whether it was made with this model, chunker and line limit: one that was not is not taken. */
  fits(identity: HandOffIdentity): boolean;
}

/** The index's identity and the line limit the chunks were cut with. */
export type HandOffIdentity = IndexIdentity & { maxLineChars: number };
