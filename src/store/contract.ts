// What indexing, search, gc, status, doctor, list and share ask of a store, whatever keeps its tables, by role:
// reading (ChunkReader), adding and deleting (ContentStore), keeping it in shape (StoreMaintenance). A backend
// implements all three as a ChunkStore and is chosen by the location of its tables (see BACKENDS in open-store.ts).
import type { RecordBatch } from './arrow.js';
import type { BlobState, MarkReason } from './blob-state.js';
import type { ChunkField } from './chunk-columns.js';
import type { StoreLocation } from './layout.js';

/** One stored chunk. No path: the same blob may live at many paths; manifests map blobs to paths. */
export interface ChunkRow {
  id: string;
  blob: string;
  startLine: number;
  endLine: number;
  language: string;
  /** Breadcrumb, e.g. "class Router > method handle". */
  symbol: string;
  text: string;
  /** Space-separated identifier-aware words of symbol and text, for full-text search. */
  terms: string;
  vector: Float32Array;
}

export type ChunkInfo = Omit<ChunkRow, 'vector' | 'terms'>;

/**
 * A chunk to add. Its content (breadcrumb and text, keyed by contentKey in content-key.ts) is stored once for all
 * the chunks that have it: vector and terms may be left out when storedContents found it stored. `key`, when
 * given, is that content key as the caller computed it already (an index run: hashing every text twice was
 * ~60 ms of tokio's index).
 */
export type ChunkToAdd = ChunkInfo & Partial<Pick<ChunkRow, 'vector' | 'terms'>> & { key?: string };

/** A blob that was read but yields no chunks (binary, LFS pointer, minified, empty): remembered so it is never read again. */
export interface BlobMark {
  blob: string;
  reason: MarkReason;
}

/**
 * Chunks in columns: an Arrow record batch of chunk fields (stored under the names of chunk-columns.ts), the
 * vector a fixed-size list of float32. Artifacts carry chunks as Arrow IPC and search reads columns in place, so
 * batches cross the contract as they are, read through readFields (chunk-batch.ts) and written as bytes by
 * chunk-bytes.ts.
 */
export type ChunkBatch = RecordBatch;

/**
 * Whether a search needs the content fields (symbol, text, terms, vector) of a chunk it is given: not when it holds
 * the chunk's indexing already, nor for a chunk it will not use.
 */
export type NeedsContent = (id: string, blob: string) => boolean;

/** What the store answers for one query: rows by vector distance, and rows by full-text score. */
export interface StoreHits {
  /**
   * In the order found. Asked with NeedsContent, the chunks of a content none of whose chunks it needs come without
   * its content fields, in batches of their own (reference fields, `_distance` or `_score`).
   */
  rows: ChunkBatch[];
  /** Full-text score per chunk id, for the rows that matched words. */
  textScores: Map<string, number>;
  /** Ids in vector order, nearest first. */
  nearest: string[];
}

/**
 * What search, status, list, export and an index run read of a store: blobs' state, counts, which contents are
 * stored, chunk fields streamed as batches (read them with readFields, chunk-batch.ts), full-text and index queries.
 */
export interface ChunkReader {
  readonly dim: number;

  /**
   * What the store knows of blobs: "chunks" when it has their chunks, else the reason they yield none.
   * With a list, only those blobs are looked up (cheap for a commit's few new blobs); without, all are read.
   */
  blobState(only?: Iterable<string>): Promise<Map<string, BlobState>>;
  /** Blob → number of chunks, for `list` and `status` (search counts a view's with countChunksOf, large-store.ts). */
  chunkCounts(): Promise<Map<string, number>>;
  countChunks(): Promise<number>;
  /** Distinct contents stored (many chunks may share one). */
  countContents(): Promise<number>;
  /** Which of these content keys (contentKey) the store has: their chunks need no embedding. */
  storedContents(keys: Iterable<string>): Promise<Set<string>>;
  /** The vector and search words of those of these contents the store has: a clone copies them from a remote instead of embedding. */
  contentVectors(keys: Iterable<string>): Promise<Map<string, { vector: Float32Array; terms: string }>>;

  /** Every field of the chunks of these blobs, streamed batch by batch (for export): memory holds one batch. */
  chunkBatchesOf(blobs: string[]): AsyncIterable<ChunkBatch>;
  /** These fields of the chunks of these blobs (null: of every chunk), streamed; search loads a view's chunks with it. */
  chunkColumns(blobs: string[] | null, fields: readonly ChunkField[]): AsyncIterable<ChunkBatch>;

  /** Best BM25 matches of space-separated words over `terms` by the store's own full-text index: the chunks of the `limit` best contents. */
  lexical(words: string, limit: number): Promise<{ id: string; score: number }[]>;
  /**
   * The chunks of the `limit` nearest contents and of the `limit` best full-text matches (every chunk that has one,
   * of any blob: the caller keeps its view's), with every field ranking needs.
   */
  queryIndexes(vector: Float32Array, words: string, limit: number, needsContent?: NeedsContent): Promise<StoreHits>;
}

/** What writes chunks and marks: an index run's embeddings, an import's or a read-through's batches, gc's deletes. */
export interface ContentStore {
  /**
   * Adds chunks atomically: their new contents first, then the chunks (a blob is known by its chunks, so a crash
   * between leaves only contents nothing references, which gc drops). Rows whose id is already stored are left
   * untouched, and a content is never stored twice, so a run resumed after a crash never duplicates one, nor do
   * two processes embedding the same blob at once. `maybeStored` says some rows may be stored already. Returns
   * the keys of contents left out (no vector) that the store no longer has (gc took them meanwhile): then nothing
   * was written, and the caller adds the rows again with those contents embedded.
   */
  addChunks(rows: ChunkToAdd[], maybeStored: boolean): Promise<string[]>;
  /** Adds these marks (the caller leaves out blobs already known). */
  addMarks(marks: BlobMark[]): Promise<void>;
  /** Deletes every chunk and mark of these blobs, and the contents no chunk references any more; returns how many chunks went. */
  deleteBlobs(blobs: string[]): Promise<number>;
  /** Deletes these chunks, by id (their blobs' marks stay); returns how many went. */
  deleteChunks(ids: string[]): Promise<number>;
  /**
   * Adds, in one commit, the rows of these batches whose id is not stored yet, nor earlier in the batches; returns
   * how many were added. Stored rows are never rewritten, so adding the same rows twice writes nothing.
   */
  addChunkBatchesNotStored(batches: ChunkBatch[]): Promise<number>;
  /**
   * As addChunkBatchesNotStored, into a store the caller builds alone under the index lock (an import's staged
   * store), tracking its ids in `stored` (and the store its contents, likewise): nothing is asked of the tables.
   */
  addChunkBatchesToNewTable(batches: ChunkBatch[], stored: Set<string>): Promise<number>;
}

/** What keeps a store in shape, apart from its contents: its layout, its fragments, the indexes of large views. */
export interface StoreMaintenance {
  /**
   * Brings a store kept in an older layout to the current one in place, without re-embedding (the caller holds the
   * index lock; readers and writers of the old layout keep working meanwhile); says whether there was any to do.
   */
  upgrade(onNotice?: (message: string) => void): Promise<boolean>;
  /**
   * Builds the indexes search needs once the view of these blobs (the tree just indexed) is large, and marks the
   * store so (large-store.ts): search then asks queryIndexes for large views instead of holding them in memory.
   */
  ensureSearchIndexes(viewBlobs: Iterable<string>, onNotice?: (message: string) => void): Promise<void>;
  /** Compacts once small writes have piled up; says whether it did. */
  compactIfFragmented(): Promise<boolean>;
  /** Folds what writes left behind and frees what deletes left (after gc). */
  compact(): Promise<void>;
}

/**
 * An open store, in every role: what openStore gives whoever opens one, to close when done. Code handed a store
 * takes the narrowest role it uses.
 */
export interface ChunkStore extends ChunkReader, ContentStore, StoreMaintenance {
  close(): void;
}

/** One way of keeping stores: answers for the locations it accepts (see BACKENDS in open-store.ts). */
export interface StoreBackend {
  /**
   * Opens the store, creating what is missing; with `create: false` (readers) a missing table is damage
   * (StoreDamageError), not an empty index. A heavy package is imported here, not when the backend is listed.
   */
  open(location: StoreLocation, dim: number, opts: { create?: boolean }): Promise<ChunkStore>;
  /** Whether anything of a store is there (cheap: asked before every search). */
  exists(location: StoreLocation): boolean;
  /** Whether every table is there (an index run that finds one gone must not trust the manifests naming its chunks). */
  hasTables(location: StoreLocation): Promise<boolean>;
}
