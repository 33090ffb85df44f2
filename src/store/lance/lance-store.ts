import fs from 'node:fs';
import { StoreDamageError } from '../../util/errors.js';
import { allOf } from '../../util/all-of.js';
import { waitLock } from '../../util/file-lock.js';
import './lance-env.js';
import * as lancedb from '@lancedb/lancedb';
import type { RecordBatch } from 'apache-arrow';
import arrow from '../arrow.js';
import { CHUNK_COLUMNS, COLUMN, columnsOf, type ChunkField } from '../chunk-columns.js';
import type { BlobMark, ChunkBatch, ChunkStore, ChunkToAdd, NeedsContent, StoreHits } from '../contract.js';
import { checkStoredBatch } from '../batch-integrity.js';
import { parseMarkReason, type BlobState } from '../blob-state.js';
import { countChunksOf, isLargeStore } from '../large-store.js';
import type { StoreLocation } from '../layout.js';
import { contentSchema, markSchema, refSchema } from './chunk-arrow.js';
import { addBatchesNotStored, chunkBatchesOf, chunkColumnsOf, refsOf, type Added, type ChunkTables } from './chunk-batches.js';
import { addToLegacyTable, addToTables, deleteBlobs, deleteChunks } from './chunk-writes.js';
import { blobFilters } from './blob-filter.js';
import { closeUnused, connectTables, existingTables, isRemoteTables } from './connect.js';
import { contentsOf, storedKeys } from './content-join.js';
import { CONTENTS, copyToSplitLayout, hasSplitLayout, LEGACY_CHUNKS, markSplitLayout, REFS } from './layout-upgrade.js';
import { ensureSearchIndexes, queryStore, textMatches, type IndexedTables } from './search-indexes.js';

const { Utf8, Table: ArrowTable, vectorFromArray } = arrow;

/** A write holds the write lock for a LanceDB commit (well under a second); waiting longer means something is stuck. */
const WRITE_LOCK_WAIT_MS = 120_000;
const MARKS = 'blob_marks';

/**
 * The LanceDB tables of one index: chunk references (`chunk_refs`: id, blob, span, language, content key), the
 * contents they name (`contents`: breadcrumb, text, words, vector, once per distinct content), and marks for blobs
 * without chunks. A store made before keeps one `chunks` table with everything until an index run upgrades it
 * (`contents` is then null and `refs` is that table): until then it is read, and written by search, as it is.
 */
export class LanceChunkStore implements ChunkStore {
  private constructor(
    private readonly db: lancedb.Connection,
    private refs: lancedb.Table,
    private contents: lancedb.Table | null,
    private readonly marks: lancedb.Table,
    readonly dim: number,
    private readonly location: StoreLocation,
  ) {}

  /** Opens the tables, creating missing ones; with `create: false` (readers) a missing table is damage, not an empty index. */
  static async open(location: StoreLocation, dim: number, opts: { create?: boolean } = {}): Promise<LanceChunkStore> {
    const dir = location.tables;
    const db = await connectTables(location);
    const names = await existingTables(db, dir, [REFS, CONTENTS, MARKS, LEGACY_CHUNKS]);
    const legacy = names.has(LEGACY_CHUNKS) && !hasSplitLayout(dir);
    const missing = (legacy ? [MARKS] : [REFS, CONTENTS, MARKS]).find((t) => !names.has(t));
    if (opts.create === false && missing) {
      closeUnused(names, []);
      db.close();
      throw new StoreDamageError(dir, `table "${missing}" is missing`);
    }
    const opened = async (name: string) => names.get(name) ?? db.openTable(name);
    const table = async (name: string, schema: ReturnType<typeof refSchema>) => (names.has(name) ? opened(name) : db.createEmptyTable(name, schema, { existOk: true }));
    closeUnused(names, legacy ? [MARKS, LEGACY_CHUNKS] : [MARKS, REFS, CONTENTS]);
    const marks = await table(MARKS, markSchema);
    const store = legacy
      ? new LanceChunkStore(db, await opened(LEGACY_CHUNKS), null, marks, dim, location)
      : new LanceChunkStore(db, await table(REFS, refSchema()), await table(CONTENTS, contentSchema(dim)), marks, dim, location);
    if (!legacy && opts.create !== false && !isRemoteTables(dir)) {
      markSplitLayout(dir);
      // What an upgrade killed after its switch left: the references and contents are the store now.
      if (names.has(LEGACY_CHUNKS)) await db.dropTable(LEGACY_CHUNKS);
    }
    store.versionsSeen = await store.versions();
    return store;
  }

  /** Tables as chunk reads and writes see them (the store must have the current layout). */
  private get tables(): ChunkTables {
    if (!this.contents) throw new Error('the store has the layout of an older ocrag: an index run upgrades it first');
    return { refs: this.refs, contents: this.contents, dim: this.dim, dir: this.location.tables };
  }

  private get indexed(): IndexedTables {
    return this.contents ? { contents: this.contents, refs: this.refs, dir: this.location.tables } : { contents: this.refs, refs: null, dir: this.location.tables };
  }

  /** Upgrades a store of the one-table layout in place (see layout-upgrade.ts); says whether there was any. */
  async upgrade(onNotice?: (message: string) => void): Promise<boolean> {
    if (this.contents) return false;
    const chunks = await this.refs.countRows();
    onNotice?.(`ocrag: upgrading the store to keep each distinct chunk content once (${chunks} chunks, nothing re-embedded)`);
    const legacy = this.refs;
    const { refs, contents } = await copyToSplitLayout(this.db, legacy, this.location, this.dim, onNotice);
    legacy.close();
    this.refs = refs;
    this.contents = contents;
    this.versionsSeen = await this.versions();
    return true;
  }

  /**
   * What the store knows of blobs: "chunks" when it has their chunks, else the reason they yield none.
   * With a list, only those blobs are looked up (cheap for a commit's few new blobs); without, all are read.
   */
  async blobState(only?: Iterable<string>): Promise<Map<string, BlobState>> {
    const state = new Map<string, BlobState>();
    const filters = only ? blobFilters(only, 500) : [null];
    for (const filter of filters) {
      const marks = this.marks.query().select([COLUMN.blob, COLUMN.reason]);
      const chunks = this.refs.query().select([COLUMN.blob]);
      // A list's look-ups (a commit's few blobs) read both tables at once, on LanceDB's threads, instead of one scan
      // after the other; a whole store's are streamed, so as not to hold every row's blob at once.
      const [marked, chunked] = filter ? await Promise.all([allOf<RecordBatch>(marks.where(filter)), allOf<RecordBatch>(chunks.where(filter))]) : [marks, chunks];
      for await (const batch of marked) {
        checkStoredBatch(batch, this.location.tables);
        const [blob, reason] = [batch.getChild(COLUMN.blob)!, batch.getChild(COLUMN.reason)!];
        for (let i = 0; i < batch.numRows; i++) state.set(blob.get(i) as string, parseMarkReason(reason.get(i) as string));
      }
      for await (const batch of chunked) {
        checkStoredBatch(batch, this.location.tables);
        const col = batch.getChild(COLUMN.blob)!;
        for (let i = 0; i < batch.numRows; i++) state.set(col.get(i) as string, 'chunks');
      }
    }
    return state;
  }

  /** Blob → number of chunks, for `list` and `status`. */
  async chunkCounts(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for await (const batch of this.refs.query().select([COLUMN.blob])) {
      checkStoredBatch(batch, this.location.tables);
      const col = batch.getChild(COLUMN.blob)!;
      for (let i = 0; i < batch.numRows; i++) {
        const b = col.get(i) as string;
        counts.set(b, (counts.get(b) ?? 0) + 1);
      }
    }
    return counts;
  }

  async countChunks(): Promise<number> {
    return this.refs.countRows();
  }

  async countContents(): Promise<number> {
    return (this.contents ?? this.refs).countRows();
  }

  /** Which of these contents are stored (none in the one-table layout: its writers embed every chunk). */
  async storedContents(keys: Iterable<string>): Promise<Set<string>> {
    return this.contents ? storedKeys(this.contents, keys) : new Set();
  }

  async contentVectors(keys: Iterable<string>): Promise<Map<string, { vector: Float32Array; terms: string }>> {
    const out = new Map<string, { vector: Float32Array; terms: string }>();
    if (!this.contents) return out;
    for (const [key, { batch, row }] of await contentsOf(this.contents, keys, [COLUMN.terms, COLUMN.vector], this.location.tables)) {
      out.set(key, { vector: Float32Array.from((batch.getChild(COLUMN.vector)!.get(row) as { toArray(): Float32Array }).toArray()), terms: batch.getChild(COLUMN.terms)!.get(row) as string });
    }
    return out;
  }

  /**
   * Adds chunks (see chunk-writes.ts): new contents, then references, each one LanceDB commit. Writes take turns
   * among processes (an index run and a search's working-tree overlay, or two servers' overlays), each on the
   * latest versions, and a plain append is used only while no other process has written since.
   */
  async addChunks(rows: ChunkToAdd[], maybeStored: boolean): Promise<string[]> {
    if (rows.length === 0) return [];
    return this.exclusive((foreignWrites) => (this.contents ? addToTables(this.tables, rows, maybeStored, foreignWrites) : addToLegacyTable(this.refs, this.dim, rows)));
  }

  /** Table versions as this handle last left them; others at the next write mean another process wrote. */
  private versionsSeen = '';

  private async versions(): Promise<string> {
    return `${await this.refs.version()}/${await this.contents?.version()}`;
  }

  /** Runs a write alone among processes (a short lock file beside the store), on the tables' latest versions. */
  private async exclusive<T>(write: (foreignWrites: boolean) => Promise<T>): Promise<T> {
    const lock = await waitLock(this.location.writeLock, WRITE_LOCK_WAIT_MS);
    try {
      for (const table of [this.refs, this.contents, this.marks]) await table?.checkoutLatest();
      const result = await write((await this.versions()) !== this.versionsSeen);
      this.versionsSeen = await this.versions();
      return result;
    } finally {
      lock.release();
    }
  }

  /** Every column of the chunks of these blobs, streamed batch by batch (for export; see chunk-batches.ts). */
  async *chunkBatchesOf(blobs: string[]): AsyncGenerator<ChunkBatch> {
    if (this.contents) yield* chunkBatchesOf(this.tables, blobs);
    else yield* refsOf(this.refs, blobFilters(blobs, 2000), CHUNK_COLUMNS, this.location.tables);
  }

  /**
   * Chosen fields of the chunks of these blobs (null: of every chunk), streamed in the order they were added.
   * Search loads the chunks a view needs into memory with it; a long list is served by one scan, not many look-ups.
   */
  async *chunkColumns(blobs: string[] | null, fields: readonly ChunkField[]): AsyncGenerator<ChunkBatch> {
    yield* chunkColumnsOf(this.refs, this.contents, this.dim, this.location.tables, blobs, columnsOf(fields));
  }

  /**
   * Adds, in one commit per table, the rows of these batches (every chunk column, e.g. decoded from Arrow IPC)
   * whose id is not stored yet, nor earlier in the batches; returns how many were added. Stored rows are never
   * rewritten, so adding the same rows twice writes nothing.
   */
  async addChunkBatchesNotStored(batches: ChunkBatch[]): Promise<number> {
    return this.exclusive(() => addBatchesNotStored(this.tables, batches));
  }

  /** Contents added to a store built alone (addChunkBatchesToNewTable), tracked as the caller tracks ids. */
  private added: Added | null = null;

  /** As addChunkBatchesNotStored, into tables the caller builds alone under the index lock, tracking its ids in `stored`. */
  async addChunkBatchesToNewTable(batches: ChunkBatch[], stored: Set<string>): Promise<number> {
    if (this.added?.ids !== stored) this.added = { ids: stored, keys: new Set() };
    return addBatchesNotStored(this.tables, batches, this.added);
  }

  async addMarks(marks: BlobMark[]): Promise<void> {
    if (marks.length === 0) return;
    const data = new ArrowTable({ blob: vectorFromArray(marks.map((m) => m.blob), new Utf8()), reason: vectorFromArray(marks.map((m) => m.reason), new Utf8()) });
    await this.marks.add(data);
  }

  /** Best BM25 matches of space-separated words over `terms` by LanceDB's full-text index (built on first use). */
  async lexical(words: string, limit: number): Promise<{ id: string; score: number }[]> {
    if (!words.trim()) return [];
    return textMatches(this.indexed, words, limit);
  }

  /** Builds the indexes a large view needs (none while every view indexed is small enough to search in memory). */
  async ensureSearchIndexes(viewBlobs: Iterable<string>, onNotice?: (message: string) => void): Promise<void> {
    await ensureSearchIndexes(this.indexed, await this.refs.countRows(), this.location, (limit) => countChunksOf(this, new Set(viewBlobs), limit), onNotice);
  }

  /** Best chunks for a query from the store's own indexes (large stores, see search-indexes.ts). */
  queryIndexes(vector: Float32Array, words: string, limit: number, needsContent?: NeedsContent): Promise<StoreHits> {
    return queryStore(this.indexed, this.dim, vector, words, limit, needsContent);
  }

  /**
   * Deletes every chunk and mark of these blobs, then the contents no chunk references any more (one scan of the
   * references' keys); returns how many chunks went. Under the write lock: a writer that found a content stored
   * adds its reference before, or finds it gone after.
   */
  async deleteBlobs(blobs: string[]): Promise<number> {
    return this.exclusive(() => deleteBlobs(this.refs, this.contents, this.marks, blobs));
  }

  /** Deletes these chunks, by id (their blobs' marks stay), then the contents no chunk references; returns how many chunks went. */
  async deleteChunks(ids: string[]): Promise<number> {
    return this.exclusive(() => deleteChunks(this.refs, this.contents, ids));
  }

  /**
   * Compacts once small writes have piled up: a commit's handful of chunks is searchable at once (new rows
   * are scanned, and full-text matched, without an index), and folding fragments costs ~1 s on a large store.
   */
  async compactIfFragmented(maxFragments = 24): Promise<boolean> {
    for (const table of [this.refs, this.contents]) {
      if (!table || (await table.stats()).fragmentStats.numFragments <= maxFragments) continue;
      await this.compact();
      return true;
    }
    return false;
  }

  /** Folds many small commits into few files and drops old versions (LanceDB keeps every version otherwise). */
  async compact(): Promise<void> {
    // A small store's full-text index (left by an older indexer or the evaluation) is read by nobody: compaction
    // would otherwise keep it current. A large store's is how it is searched.
    const { contents } = this.indexed;
    if (!isLargeStore(this.location)) for (const index of await contents.listIndices()) if (index.columns.includes(COLUMN.terms)) await contents.dropIndex(index.name);
    for (const table of [this.refs, this.contents, this.marks]) await table?.optimize({ cleanupOlderThan: new Date(), deleteUnverified: false });
  }

  close(): void {
    for (const table of [this.refs, this.contents, this.marks]) table?.close();
    this.db.close();
  }
}

/** Whether every table of a layout exists at this location. */
export async function hasTables(location: StoreLocation): Promise<boolean> {
  const dir = location.tables;
  if (!isRemoteTables(dir) && !fs.existsSync(dir)) return false;
  const db = await connectTables(location);
  try {
    const names = await existingTables(db, dir, [REFS, CONTENTS, MARKS, LEGACY_CHUNKS]);
    const legacy = names.has(LEGACY_CHUNKS) && !hasSplitLayout(dir);
    closeUnused(names, []);
    return names.has(MARKS) && (legacy || (names.has(REFS) && names.has(CONTENTS)));
  } finally {
    db.close();
  }
}
