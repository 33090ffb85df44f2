import fs from 'node:fs';
import { isObjectId } from '../../git/object-id.js';
import { StoreDamageError } from '../../util/errors.js';
import { waitLock } from '../../util/file-lock.js';
import './lance-env.js';
import * as lancedb from '@lancedb/lancedb';
import arrow from '../arrow.js';
import type { BlobMark, ChunkBatch, ChunkRow, ChunkStore, StoreHits } from '../contract.js';
import { countChunksOf, isLargeStore } from '../large-store.js';
import type { StoreLocation } from '../layout.js';
import { chunkSchema, markSchema, rowsToArrow } from './chunk-arrow.js';
import { addBatchesNotStored, chunkBatchesOf } from './chunk-batches.js';
import { blobFilters, idFilters } from './blob-filter.js';
import { parseMarkReason, type BlobState } from '../blob-state.js';
import { ensureSearchIndexes, ensureTextIndex, queryStore } from './search-indexes.js';

const { Utf8, Table: ArrowTable, vectorFromArray } = arrow;

const CHUNKS = 'chunks';
/** A write holds the write lock for a LanceDB commit (well under a second); waiting longer means something is stuck. */
const WRITE_LOCK_WAIT_MS = 120_000;
const MARKS = 'blob_marks';

/** The LanceDB tables of one index: chunks with their vectors, and marks for blobs without chunks. */
export class LanceChunkStore implements ChunkStore {
  private constructor(
    private readonly db: lancedb.Connection,
    private readonly chunks: lancedb.Table,
    private readonly marks: lancedb.Table,
    readonly dim: number,
    private readonly location: StoreLocation,
  ) {}

  /** Opens the tables, creating missing ones; with `create: false` (readers) a missing table is damage, not an empty index. */
  static async open(location: StoreLocation, dim: number, opts: { create?: boolean } = {}): Promise<LanceChunkStore> {
    const dir = location.tables;
    fs.mkdirSync(dir, { recursive: true });
    const db = await lancedb.connect(dir);
    const names = new Set(await db.tableNames());
    const missing = [CHUNKS, MARKS].find((t) => !names.has(t));
    if (opts.create === false && missing) {
      db.close();
      throw new StoreDamageError(dir, `table "${missing}" is missing`);
    }
    const chunks = names.has(CHUNKS) ? await db.openTable(CHUNKS) : await db.createEmptyTable(CHUNKS, chunkSchema(dim), { existOk: true });
    const marks = names.has(MARKS) ? await db.openTable(MARKS) : await db.createEmptyTable(MARKS, markSchema, { existOk: true });
    const store = new LanceChunkStore(db, chunks, marks, dim, location);
    store.rowsSeen = await chunks.countRows();
    return store;
  }

  /**
   * What the store knows of blobs: "chunks" when it has their chunks, else the reason they yield none.
   * With a list, only those blobs are looked up (cheap for a commit's few new blobs); without, all are read.
   */
  async blobState(only?: Iterable<string>): Promise<Map<string, BlobState>> {
    const state = new Map<string, BlobState>();
    const filters = only ? blobFilters(only, 500) : [null];
    for (const filter of filters) {
      const marks = this.marks.query().select(['blob', 'reason']);
      for (const row of await (filter ? marks.where(filter) : marks).toArray()) state.set(row.blob as string, parseMarkReason(row.reason as string));
      const chunks = this.chunks.query().select(['blob']);
      for await (const batch of filter ? chunks.where(filter) : chunks) {
        const col = batch.getChild('blob')!;
        for (let i = 0; i < batch.numRows; i++) state.set(col.get(i) as string, 'chunks');
      }
    }
    return state;
  }

  /** Blob → number of chunks, for `list` and `status`. */
  async chunkCounts(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for await (const batch of this.chunks.query().select(['blob'])) {
      const col = batch.getChild('blob')!;
      for (let i = 0; i < batch.numRows; i++) {
        const b = col.get(i) as string;
        counts.set(b, (counts.get(b) ?? 0) + 1);
      }
    }
    return counts;
  }

  /**
   * Adds chunks in one atomic LanceDB commit. Rows whose id is already stored are left untouched, so a
   * run resumed after a crash never duplicates a chunk, nor do two processes embedding the same blob at once
   * (an index run and a search's working-tree overlay, or two servers' overlays): writes take turns, each on
   * the latest version, and a plain append is used only while no other process has written since.
   */
  async addChunks(rows: ChunkRow[], maybeStored: boolean): Promise<void> {
    if (rows.length === 0) return;
    const data = rowsToArrow(rows, this.dim);
    await this.exclusive(async (foreignWrites) => {
      if (maybeStored || foreignWrites) await this.chunks.mergeInsert('id').whenNotMatchedInsertAll().execute(data);
      else await this.chunks.add(data);
    });
  }

  /** Rows of the chunks table as this handle last left them; more at the next write means another process wrote. */
  private rowsSeen = -1;

  /** Runs a write alone among processes (a short lock file beside the store), on the table's latest version. */
  private async exclusive<T>(write: (foreignWrites: boolean) => Promise<T>): Promise<T> {
    const lock = await waitLock(this.location.writeLock, WRITE_LOCK_WAIT_MS);
    try {
      await this.chunks.checkoutLatest();
      const before = await this.chunks.countRows();
      const result = await write(this.rowsSeen >= 0 && before !== this.rowsSeen);
      this.rowsSeen = await this.chunks.countRows();
      return result;
    } finally {
      lock.release();
    }
  }

  /** Every column of the chunks of these blobs, streamed batch by batch (for export; see chunk-batches.ts). */
  chunkBatchesOf(blobs: string[]): AsyncGenerator<ChunkBatch> {
    return chunkBatchesOf(this.chunks, blobs);
  }

  /**
   * Chosen columns of the chunks of these blobs (null: of every chunk), streamed in LanceDB's batches. Search
   * loads the chunks a view needs into memory with it; a long list is served by one scan, not many look-ups.
   */
  async *chunkColumns(blobs: string[] | null, columns: string[]): AsyncGenerator<ChunkBatch> {
    const wanted = blobs && new Set(blobs.filter(isObjectId));
    if (wanted && wanted.size === 0) return;
    const filters = !wanted || wanted.size > 2000 ? [null] : blobFilters(wanted, 500);
    for (const filter of filters) {
      const query = this.chunks.query().select(columns);
      for await (const rows of filter ? query.where(filter) : query) yield rows as unknown as ChunkBatch;
    }
  }

  /**
   * Adds, in one commit, the rows of these batches (chunks columns, e.g. decoded from Arrow IPC) whose id is not
   * stored yet, nor earlier in the batches; returns how many were added. Stored rows are never rewritten, so
   * adding the same rows twice writes nothing. Plain batches of new rows go to LanceDB as they are.
   */
  async addChunkBatchesNotStored(batches: ChunkBatch[]): Promise<number> {
    return this.exclusive(() => addBatchesNotStored(this.chunks, this.dim, batches));
  }

  /** As addChunkBatchesNotStored, into a table the caller builds alone under the index lock, tracking its ids in `stored`. */
  async addChunkBatchesToNewTable(batches: ChunkBatch[], stored: Set<string>): Promise<number> {
    return addBatchesNotStored(this.chunks, this.dim, batches, stored);
  }

  async addMarks(marks: BlobMark[]): Promise<void> {
    if (marks.length === 0) return;
    const data = new ArrowTable({ blob: vectorFromArray(marks.map((m) => m.blob), new Utf8()), reason: vectorFromArray(marks.map((m) => m.reason), new Utf8()) });
    await this.marks.add(data);
  }

  /** Best BM25 matches of space-separated words over `terms` by LanceDB's full-text index (built on first use). */
  async lexical(words: string, limit: number): Promise<{ id: string; score: number }[]> {
    if (!words.trim()) return [];
    await ensureTextIndex(this.chunks);
    const rows = await this.chunks.search(words, 'fts', 'terms').limit(limit).select(['id', '_score']).toArray();
    return rows.map((r) => ({ id: r.id as string, score: r._score as number }));
  }

  /** Builds the indexes a large view needs (none while every view indexed is small enough to search in memory). */
  async ensureSearchIndexes(viewBlobs: Iterable<string>, onNotice?: (message: string) => void): Promise<void> {
    await ensureSearchIndexes(this.chunks, this.location, (limit) => countChunksOf(this, new Set(viewBlobs), limit), onNotice);
  }

  /** Best chunks for a query from the store's own indexes (large views, see search-indexes.ts). */
  queryIndexes(vector: Float32Array, words: string, limit: number): Promise<StoreHits> {
    return queryStore(this.chunks, vector, words, limit);
  }

  /** Deletes every chunk and mark of these blobs; returns how many chunks went. */
  async deleteBlobs(blobs: string[]): Promise<number> {
    const before = await this.chunks.countRows();
    for (const filter of blobFilters(blobs, 500)) {
      await this.chunks.delete(filter);
      await this.marks.delete(filter);
    }
    return before - (await this.chunks.countRows());
  }

  /** Deletes these chunks, by id (their blobs' marks stay); returns how many went. */
  async deleteChunks(ids: string[]): Promise<number> {
    const before = await this.chunks.countRows();
    for (const filter of idFilters(ids, 500)) await this.chunks.delete(filter);
    return before - (await this.chunks.countRows());
  }

  async countChunks(): Promise<number> {
    return this.chunks.countRows();
  }

  /**
   * Compacts once small writes have piled up: a commit's handful of chunks is searchable at once (new rows
   * are scanned, and full-text matched, without an index), and folding fragments costs ~1 s on a large store.
   */
  async compactIfFragmented(maxFragments = 24): Promise<boolean> {
    const stats = await this.chunks.stats();
    if (stats.fragmentStats.numFragments <= maxFragments) return false;
    await this.compact();
    return true;
  }

  /** Folds many small commits into few files and drops old versions (LanceDB keeps every version otherwise). */
  async compact(): Promise<void> {
    // A small store's full-text index (left by an older indexer or the evaluation) is read by nobody: compaction
    // would otherwise keep it current. A large store's is how it is searched.
    if (!isLargeStore(this.location)) for (const index of await this.chunks.listIndices()) if (index.columns.includes('terms')) await this.chunks.dropIndex(index.name);
    for (const table of [this.chunks, this.marks]) await table.optimize({ cleanupOlderThan: new Date(), deleteUnverified: false });
  }

  close(): void {
    this.chunks.close();
    this.marks.close();
    this.db.close();
  }
}

/** Whether both tables exist in this folder. */
export async function hasTables(dir: string): Promise<boolean> {
  if (!fs.existsSync(dir)) return false;
  const db = await lancedb.connect(dir);
  try {
    const names = await db.tableNames();
    return names.includes(CHUNKS) && names.includes(MARKS);
  } finally {
    db.close();
  }
}
