import { chunkFile, chunkerVersionOf } from '../chunk/index.js';
import type { Chunk } from '../chunk/types.js';
import type { Embedder } from '../embed/index.js';
import { formatBreadcrumb } from '../text/breadcrumb.js';
import { codeTerms } from '../text/terms.js';
import { readEach } from '../util/read-ahead.js';
import type { BlobMark, ChunkRow, ChunkStore } from '../store/contract.js';
import { chunkId } from './chunk-id.js';
import { crashPoint } from './crash-point.js';
import { classifyContent } from './select.js';

/** A blob to store, named by one path it lives at (its extension picks the chunker's language). */
export interface BlobToIndex {
  path: string;
  blob: string;
}

export interface BlobProgress {
  blobsDone: number;
  blobsTotal: number;
  chunks: number;
  chunksPerSecond: number;
}

export interface EmbedBlobsResult {
  chunks: number;
  writes: number;
  /** Blobs that yield no chunks, and why ("empty" for blank files). */
  marks: BlobMark[];
}

/** Blobs are embedded in groups of about this many chunks, and each group is one LanceDB commit. */
const CHUNKS_PER_WRITE = 1024;
/** Blob reads kept in flight ahead of the one being chunked. */
const READ_AHEAD = 64;

/**
 * Reads, chunks, embeds and stores blobs in bounded groups, so memory stays flat whatever the repository
 * size. A group holds whole blobs only, so a blob's chunks land in one atomic commit: after a crash a blob
 * is either fully stored or not at all.
 */
export async function embedBlobs(
  store: ChunkStore,
  embedder: Embedder,
  blobs: BlobToIndex[],
  read: (b: BlobToIndex) => Promise<Buffer | null>,
  settings: { maxLineChars: number; onProgress?: (p: BlobProgress) => void; signal?: AbortSignal },
): Promise<EmbedBlobsResult> {
  const result: EmbedBlobsResult = { chunks: 0, writes: 0, marks: [] };
  if (blobs.length === 0) return result;
  const started = performance.now();
  const report = (done: number) => {
    settings.onProgress?.({ blobsDone: done, blobsTotal: blobs.length, chunks: result.chunks, chunksPerSecond: result.chunks / ((performance.now() - started) / 1000 || 1) });
    // Right after a durable write: what was stored stays stored, and no manifest names a half-done run.
    settings.signal?.throwIfAborted();
  };
  // A store that already has rows may hold part of this work (a crashed run): merge by id, never append twice.
  const maybeStored = (await store.countChunks()) > 0;
  // Crash tests make groups tiny, to have many commits to kill a run between.
  const chunksPerWrite = Number(process.env.OCRAG_TEST_CHUNKS_PER_WRITE) || CHUNKS_PER_WRITE;
  let group: { blob: string; chunks: Chunk[] }[] = [];
  let groupChunks = 0;
  const flush = async (done: number) => {
    const rows = await embedGroup(group, embedder);
    crashPoint('embed.write');
    await store.addChunks(rows, maybeStored);
    crashPoint('embed.written');
    if (rows.length) result.writes++;
    result.chunks += rows.length;
    group = [];
    groupChunks = 0;
    report(done);
  };
  const reads = readEach(blobs, read, READ_AHEAD);
  try {
    for (let done = 1; ; done++) {
      const next = await reads.take();
      if (!next) break;
      const { item: entry } = next;
      const bytes = await next.read;
      const content = bytes ? classifyContent(bytes, settings.maxLineChars) : { reason: 'binary' as const };
      if ('reason' in content) {
        result.marks.push({ blob: entry.blob, reason: content.reason });
        continue;
      }
      const chunks = await chunkFile(entry.path, content.text, { maxLineChars: settings.maxLineChars });
      if (chunks.length === 0) {
        result.marks.push({ blob: entry.blob, reason: 'empty' });
        continue;
      }
      group.push({ blob: entry.blob, chunks });
      groupChunks += chunks.length;
      if (groupChunks >= chunksPerWrite) await flush(done);
    }
  } finally {
    await reads.stop();
  }
  if (group.length) await flush(blobs.length);
  crashPoint('embed.marks');
  await store.addMarks(result.marks);
  return result;
}

async function embedGroup(group: { blob: string; chunks: Chunk[] }[], embedder: Embedder): Promise<ChunkRow[]> {
  const flat = group.flatMap((g) => g.chunks.map((c) => ({ blob: g.blob, chunk: c })));
  const vectors = await embedder.embed(flat.map(({ chunk }) => embeddingText(chunk)));
  return flat.map(({ blob, chunk }, i) => ({
    id: chunkId(blob, chunkerVersionOf(chunk.language), embedder.modelId, chunk.startLine, chunk.endLine),
    blob,
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    language: chunk.language,
    symbol: formatBreadcrumb(chunk.symbols),
    text: chunk.text,
    terms: codeTerms(embeddingText(chunk)).join(' '),
    vector: vectors[i],
  }));
}

/** What is embedded: the code plus its breadcrumb, both from the blob's own content, so a rename never re-embeds. */
export function embeddingText(chunk: Chunk): string {
  return chunk.symbols.length ? `${formatBreadcrumb(chunk.symbols)}\n${chunk.text}` : chunk.text;
}
