import { chunkerVersionOf } from '../chunk/index.js';
import type { Chunk } from '../chunk/types.js';
import type { Embedder } from '../embed/index.js';
import { formatBreadcrumb } from '../text/breadcrumb.js';
import { contentEmbeddingText, contentTerms } from './content-text.js';
import { readEach } from '../util/read-ahead.js';
import { testSeams } from '../util/test-seams.js';
import { contentKey } from '../store/content-key.js';
import type { BlobMark, ChunkReader, ChunkToAdd, ContentStore } from '../store/contract.js';
import { chunkId } from './chunk-id.js';
import { checkpoint, crashPoint } from './crash-point.js';
import { chunksOfBlob } from './blob-chunks.js';
import { StoreRate, type BlobProgress, type IndexPhase } from './progress.js';
import { eventLoopYielder } from '../util/event-loop.js';
import type { HandedChunks } from './handed-chunks.js';

/** A blob to store, named by one path it lives at (its extension picks the chunker's language). */
export interface BlobToIndex {
  path: string;
  blob: string;
}

export type { BlobProgress, IndexPhase } from './progress.js';

export interface EmbedBlobsResult {
  /** Chunks stored. */
  chunks: number;
  /** Contents embedded: chunks whose breadcrumb and text the store did not have yet (once each). */
  embedded: number;
  /** Contents copied instead (from a remote store, by `copyContents`). */
  copied: number;
  writes: number;
  /** Blobs that yield no chunks, and why ("empty" for blank files). */
  marks: BlobMark[];
  /** Languages of the blobs chunked, for what the run tells about them (a grammar that did not load). */
  languages: Set<string>;
}

/** Blobs are embedded in groups of about this many chunks, and each group is one LanceDB commit. */
const CHUNKS_PER_WRITE = 1024;
/**
 * The first group is this small and each next one twice the last, up to CHUNKS_PER_WRITE: the first files are
 * stored (and shown as done) within a second of chunking, not after three full groups. A group also closes at
 * GROUP_SHARE of the run's files (once it has this many chunks, half of EMBED_SLICE and above the embedder's
 * worker-pool minimum), so the percent, which counts stored files only, moves in steps of about 5 %.
 */
const FIRST_GROUP_CHUNKS = 128;
const GROUP_SHARE = 0.05;
/** Blob reads kept in flight ahead of the one being chunked. */
const READ_AHEAD = 64;
/**
 * A group's new contents go to the embedder in slices of this many, so progress moves within a group (a group
 * of 1024 takes about a second on two cores); 256 stays well above the embedder's worker-pool minimum (64).
 */
const EMBED_SLICE = 256;

/**
 * Reads, chunks, embeds and stores blobs in bounded groups, so memory stays flat whatever the repository
 * size. A group holds whole blobs only, so a blob's chunks land in one atomic commit: after a crash a blob
 * is either fully stored or not at all. Only contents the store lacks are embedded, each once: an edit to one
 * function of a big file embeds that function, though every chunk of the new blob is stored.
 */
export async function embedBlobs(
  store: ChunkReader & ContentStore,
  embedder: Embedder,
  blobs: BlobToIndex[],
  read: (b: BlobToIndex) => Promise<Buffer | null>,
  settings: { maxLineChars: number; onProgress?: (p: BlobProgress) => void; signal?: AbortSignal; copyContents?: CopyContents; onStored?: (rows: PendingChunk[]) => void; handed?: HandedChunks },
): Promise<EmbedBlobsResult> {
  const result: EmbedBlobsResult = { chunks: 0, embedded: 0, copied: 0, writes: 0, marks: [], languages: new Set() };
  if (blobs.length === 0) return result;
  // Progress as the work goes: files chunked, embedding slices, writes; only stored work counts as done.
  const counts = { stored: 0, chunked: 0, embedded: 0 };
  const rate = new StoreRate();
  const tell = (phase: IndexPhase) =>
    settings.onProgress?.({
      phase,
      blobsDone: counts.stored,
      blobsTotal: blobs.length,
      blobsChunked: counts.chunked,
      blobsEmbedded: counts.embedded,
      chunks: result.chunks,
      ...rate.at(blobs.length),
    });
  const report = (done: number) => {
    counts.stored = done;
    rate.stored(done, result.chunks);
    counts.embedded = Math.max(counts.embedded, done);
    tell('writing');
    // Right after a durable write: what was stored stays stored, and no manifest names a half-done run.
    settings.signal?.throwIfAborted();
  };
  // A store that already has rows may hold part of this work (a crashed run): merge by id, never append twice.
  const maybeStored = (await store.countChunks()) > 0;
  // Crash tests make groups tiny, to have many commits to kill a run between.
  const seamGroup = testSeams().chunksPerWrite;
  let chunksPerWrite = seamGroup || FIRST_GROUP_CHUNKS;
  let group: Group = [];
  let groupChunks = 0;
  // Contents this run embeds: chunks of later groups with the same content need no embedding, nor asking. A content
  // is claimed when its group starts embedding; groups are written in order, so it is stored before any later
  // group's reference to it.
  const claimed = new Set<string>();
  const embed = async (rows: PendingChunk[], from: number, to: number) => {
    const missing = new Set([...new Set(rows.map((r) => r.key))].filter((k) => !claimed.has(k)));
    // While the store looks the contents up (on LanceDB's threads), this thread sets up the encoder they may need.
    const asking = maybeStored && missing.size ? store.storedContents(missing) : null;
    embedder.prepare?.(missing.size);
    if (asking) for (const key of await asking) missing.delete(key);
    for (const key of missing) claimed.add(key);
    // What an early answer embedded (early/hand-off.ts): the same text through the same model, so the same vector.
    const handed = settings.handed?.contents;
    if (handed) for (const r of rows) if (missing.has(r.key) && handed.has(r.key)) Object.assign(r, handed.get(r.key));
    if (handed) for (const key of missing) if (handed.has(key)) missing.delete(key);
    if (settings.copyContents && missing.size) {
      const wanted: ContentsWanted = new Map();
      for (const r of rows) if (missing.has(r.key) && !wanted.has(r.key)) wanted.set(r.key, r);
      const found = await settings.copyContents(wanted);
      for (const r of rows) if (found.has(r.key)) Object.assign(r, found.get(r.key));
      for (const key of found.keys()) missing.delete(key);
      result.copied += found.size;
    }
    result.embedded += await embedContents(rows, missing, embedder, (share) => {
      counts.embedded = Math.max(counts.embedded, from + (to - from) * share);
      tell('embedding');
    });
  };
  const write = async (rows: PendingChunk[], done: number) => {
    tell('writing');
    crashPoint('embed.write');
    // Contents found stored may be gone by the write (a gc between): then they are embedded after all.
    for (let gone = await store.addChunks(rows, maybeStored); gone.length; gone = await store.addChunks(rows, maybeStored)) {
      result.embedded += await embedContents(rows, new Set(gone), embedder);
    }
    await checkpoint('embed.written');
    settings.onStored?.(rows);
    if (rows.length) result.writes++;
    result.chunks += rows.length;
    report(done);
  };
  // Three stages overlap: this thread reads and chunks group N+2 while the tokenizer's workers embed group N+1 and
  // LanceDB writes group N. Groups are still written one after another, each in one commit.
  let embedding: Promise<void> = Promise.resolve();
  let writing: Promise<void> = Promise.resolve();
  let writingBefore: Promise<void> = Promise.resolve();
  let flushed = 0;
  const flush = async (done: number) => {
    const rows = rowsOf(group, embedder);
    const from = flushed;
    flushed = done;
    group = [];
    groupChunks = 0;
    chunksPerWrite = seamGroup || Math.min(CHUNKS_PER_WRITE, chunksPerWrite * 2);
    // One group embeds at a time (it keeps every worker busy), and at most two wait to be written: memory stays flat.
    await embedding;
    await writingBefore;
    const embedded = embed(rows, from, done);
    const previous = writing;
    writingBefore = previous;
    writing = embedded.then(() => previous).then(() => write(rows, done));
    // Failures are thrown where they are awaited: at the next group, or at the end.
    embedding = embedded.catch(() => undefined);
    writing.catch(() => undefined);
  };
  // A blob an early answer chunked is not read again.
  const reads = readEach(blobs, (b) => (settings.handed?.chunksOf(b) ? Promise.resolve(null) : read(b)), READ_AHEAD);
  // Blobs read ahead are chunked without a pause for I/O otherwise: the process would not answer meanwhile.
  const pause = eventLoopYielder();
  try {
    for (let done = 1; ; done++) {
      await pause();
      const next = await reads.take();
      if (!next) break;
      const { item: entry } = next;
      const bytes = await next.read;
      const content = settings.handed?.chunksOf(entry) ?? (await chunksOfBlob(entry.path, bytes, settings.maxLineChars));
      counts.chunked = done;
      tell('chunking');
      if ('reason' in content) {
        result.marks.push({ blob: entry.blob, reason: content.reason });
        continue;
      }
      const { chunks } = content;
      result.languages.add(chunks[0]!.language);
      group.push({ blob: entry.blob, chunks });
      groupChunks += chunks.length;
      if (groupChunks >= chunksPerWrite || (!seamGroup && groupChunks >= FIRST_GROUP_CHUNKS && group.length >= blobs.length * GROUP_SHARE)) await flush(done);
    }
    if (group.length) await flush(blobs.length);
    await writing;
  } finally {
    await reads.stop();
    // A failed read must not leave a write running on a store the caller is about to close.
    await writing.catch(() => undefined);
  }
  crashPoint('embed.marks');
  await store.addMarks(result.marks);
  return result;
}

/**
 * Where contents the store lacks may be found already embedded (a remote store): their vector and words by key,
 * for these keys (each with a chunk that has it: what is found must be the embedding of its text). A blob changed
 * since it was published has mostly unchanged functions, whose contents are there.
 */
export type CopyContents = (wanted: ContentsWanted) => Promise<Map<string, { vector: Float32Array; terms: string }>>;

/** Content key → a chunk of this run with that content: its blob, lines and the text it is embedded as. */
export type ContentsWanted = Map<string, { blob: string; startLine: number; endLine: number; embedding: string }>;

/** Whole blobs' chunks, stored in one commit. */
export type Group = { blob: string; chunks: Chunk[] }[];

/** A chunk on its way to the store: its content key, and what is embedded should its content be new. */
export type PendingChunk = ChunkToAdd & { key: string; embedding: string };

export function rowsOf(group: Group, embedder: Embedder): PendingChunk[] {
  const flat = group.flatMap((g) => g.chunks.map((c) => ({ blob: g.blob, chunk: c })));
  return flat.map(({ blob, chunk }) => {
    const symbol = formatBreadcrumb(chunk.symbols);
    return {
      id: chunkId(blob, chunkerVersionOf(chunk.language), embedder.modelId, chunk.startLine, chunk.endLine),
      blob,
      startLine: chunk.startLine,
      endLine: chunk.endLine,
      language: chunk.language,
      symbol,
      text: chunk.text,
      key: contentKey(symbol, chunk.text),
      embedding: contentEmbeddingText(symbol, chunk.text),
    };
  });
}

/**
 * Embeds each of these contents once and gives its vector and words to every row that has it; returns how many.
 * `onSlice` hears the share embedded after each slice.
 */
export async function embedContents(rows: PendingChunk[], keys: Set<string>, embedder: Embedder, onSlice?: (share: number) => void): Promise<number> {
  if (keys.size === 0) return 0;
  const first = new Map<string, PendingChunk>();
  for (const r of rows) if (keys.has(r.key) && !first.has(r.key)) first.set(r.key, r);
  const texts = [...first.values()].map((r) => r.embedding);
  // Every slice is handed to the embedder at once (its workers queue them): awaiting one before the next would
  // drain the workers at each slice's end.
  const slices: Promise<Float32Array[]>[] = [];
  let sliced = 0;
  for (let at = 0; at < texts.length; at += EMBED_SLICE) {
    const size = Math.min(EMBED_SLICE, texts.length - at);
    slices.push(embedder.embed(texts.slice(at, at + size)).then((v) => (onSlice?.((sliced += size) / texts.length), v)));
  }
  const vectors = (await Promise.all(slices)).flat();
  // Splitting a group's words takes a while on this thread: the process answers its I/O between slices of it.
  const pause = eventLoopYielder();
  const embedded = new Map<string, { vector: Float32Array; terms: string }>();
  for (const [i, key] of [...first.keys()].entries()) {
    embedded.set(key, { vector: vectors[i]!, terms: contentTerms(texts[i]!) });
    await pause();
  }
  for (const r of rows) Object.assign(r, embedded.get(r.key));
  return first.size;
}

/** What is embedded: the code plus its breadcrumb, both from the blob's own content, so a rename never re-embeds. */
export function embeddingText(chunk: Chunk): string {
  return contentEmbeddingText(formatBreadcrumb(chunk.symbols), chunk.text);
}

