import fs from 'node:fs';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { Float32 as Float32Type, FixedSizeList as FixedSizeListType, RecordBatch as RecordBatchType, Schema as SchemaType, Table as TableType } from 'apache-arrow';
import arrow from './arrow.js';

const { Field, FixedSizeList, Float32, Int32, Schema, Utf8, makeData, Table: ArrowTable, RecordBatch, Struct, vectorFromArray } = arrow;

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
export type ScoredChunk = ChunkInfo & { score: number };

/** A blob that was read but yields no chunks (binary, LFS pointer, minified, empty): remembered so it is never read again. */
export interface BlobMark {
  blob: string;
  reason: string;
}

const CHUNKS = 'chunks';
const MARKS = 'blob_marks';
const INFO_COLUMNS = ['id', 'blob', 'start_line', 'end_line', 'language', 'symbol', 'text'];
/** Every stored column of a chunk, in schema order. */
export const CHUNK_COLUMNS = [...INFO_COLUMNS, 'terms', 'vector'];

function chunkSchema(dim: number): SchemaType {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('blob', new Utf8(), false),
    new Field('start_line', new Int32(), false),
    new Field('end_line', new Int32(), false),
    new Field('language', new Utf8(), false),
    new Field('symbol', new Utf8(), false),
    new Field('text', new Utf8(), false),
    new Field('terms', new Utf8(), false),
    new Field('vector', new FixedSizeList(dim, new Field('item', new Float32(), true)), false),
  ]);
}

const markSchema = new Schema([new Field('blob', new Utf8(), false), new Field('reason', new Utf8(), false)]);

/** The LanceDB tables of one index: chunks with their vectors, and marks for blobs without chunks. */
export class ChunkStore {
  private constructor(
    private readonly db: lancedb.Connection,
    private readonly chunks: lancedb.Table,
    private readonly marks: lancedb.Table,
    readonly dim: number,
    readonly dir: string,
  ) {}

  static async open(dir: string, dim: number): Promise<ChunkStore> {
    fs.mkdirSync(dir, { recursive: true });
    const db = await lancedb.connect(dir);
    const names = new Set(await db.tableNames());
    const chunks = names.has(CHUNKS) ? await db.openTable(CHUNKS) : await db.createEmptyTable(CHUNKS, chunkSchema(dim), { existOk: true });
    const marks = names.has(MARKS) ? await db.openTable(MARKS) : await db.createEmptyTable(MARKS, markSchema, { existOk: true });
    return new ChunkStore(db, chunks, marks, dim, dir);
  }

  /**
   * What the store knows of blobs: "chunks" when it has their chunks, else the reason they yield none.
   * With a list, only those blobs are looked up (cheap for a commit's few new blobs); without, all are read.
   */
  async blobState(only?: Iterable<string>): Promise<Map<string, string>> {
    const state = new Map<string, string>();
    const filters = only ? batchesOf([...only].filter((b) => /^[0-9a-f]{40,64}$/.test(b)), 500).map((batch) => `blob IN (${batch.map((b) => `'${b}'`).join(',')})`) : [null];
    for (const filter of filters) {
      const marks = this.marks.query().select(['blob', 'reason']);
      for (const row of await (filter ? marks.where(filter) : marks).toArray()) state.set(row.blob as string, row.reason as string);
      const chunks = this.chunks.query().select(['blob']);
      for await (const batch of filter ? chunks.where(filter) : chunks) {
        const col = batch.getChild('blob')!;
        for (let i = 0; i < batch.numRows; i++) state.set(col.get(i) as string, 'chunks');
      }
    }
    return state;
  }

  /** Id and blob of every chunk (for consistency checks and export). */
  async chunkIds(): Promise<{ id: string; blob: string }[]> {
    const out: { id: string; blob: string }[] = [];
    for await (const batch of this.chunks.query().select(['id', 'blob'])) {
      const ids = batch.getChild('id')!;
      const blobs = batch.getChild('blob')!;
      for (let i = 0; i < batch.numRows; i++) out.push({ id: ids.get(i) as string, blob: blobs.get(i) as string });
    }
    return out;
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
   * run resumed after a crash never duplicates a chunk.
   */
  async addChunks(rows: ChunkRow[], maybeStored: boolean): Promise<void> {
    if (rows.length === 0) return;
    const data = this.toArrow(rows);
    if (maybeStored) await this.chunks.mergeInsert('id').whenNotMatchedInsertAll().execute(data);
    else await this.chunks.add(data);
  }

  /**
   * Every column of the chunks of these blobs, streamed in the Arrow batches LanceDB reads (for export): memory
   * holds one batch, never the whole set.
   */
  async *chunkBatchesOf(blobs: string[]): AsyncGenerator<RecordBatchType> {
    for (const batch of batchesOf(blobs.filter((b) => /^[0-9a-f]{40,64}$/.test(b)), 2000)) {
      const query = this.chunks.query().where(`blob IN (${batch.map((b) => `'${b}'`).join(',')})`).select(CHUNK_COLUMNS);
      for await (const rows of query) yield rows as unknown as RecordBatchType;
    }
  }

  /**
   * Adds, in one commit, the rows whose id is not stored yet (nor earlier in `rows`); returns how many were
   * added. Stored rows are never rewritten, so adding the same rows twice is a no-op that writes nothing.
   */
  async addChunksNotStored(rows: ChunkRow[]): Promise<number> {
    const seen = new Set<string>();
    for (const batch of batchesOf([...new Set(rows.map((r) => r.blob))].filter((b) => /^[0-9a-f]{40,64}$/.test(b)), 500)) {
      const stored = this.chunks.query().where(`blob IN (${batch.map((b) => `'${b}'`).join(',')})`).select(['id']);
      for await (const found of stored) {
        const ids = found.getChild('id')!;
        for (let i = 0; i < found.numRows; i++) seen.add(ids.get(i) as string);
      }
    }
    const missing: ChunkRow[] = [];
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      missing.push(row);
    }
    if (missing.length) await this.chunks.add(this.toArrow(missing));
    return missing.length;
  }

  async addMarks(marks: BlobMark[]): Promise<void> {
    if (marks.length === 0) return;
    const data = new ArrowTable({ blob: vectorFromArray(marks.map((m) => m.blob), new Utf8()), reason: vectorFromArray(marks.map((m) => m.reason), new Utf8()) });
    await this.marks.add(data);
  }

  /** Nearest chunks by cosine distance; `score` = 1 − distance. */
  async nearest(query: Float32Array, limit: number): Promise<ScoredChunk[]> {
    const rows = await this.chunks
      .vectorSearch(query)
      .distanceType('cosine')
      .limit(limit)
      .select([...INFO_COLUMNS, '_distance'])
      .toArray();
    return rows.map((r) => ({ ...rowToInfo(r), score: 1 - (r._distance as number) }));
  }

  /**
   * Best BM25 matches of space-separated query words over the `terms` column, with their cosine to `vector`
   * (so lexical and semantic evidence can be blended). Rows written since the last compaction are searched too.
   */
  async lexical(words: string, vector: Float32Array, limit: number): Promise<(ScoredChunk & { cosine: number })[]> {
    if (!words.trim()) return [];
    const rows = await this.chunks
      .search(words, 'fts', 'terms')
      .limit(limit)
      .select([...INFO_COLUMNS, 'vector', '_score'])
      .toArray();
    return rows.map((r) => ({ ...rowToInfo(r), score: r._score as number, cosine: dot(r.vector as { toArray(): ArrayLike<number> }, vector) }));
  }

  /**
   * Every chunk of these blobs with its cosine to `vector`: search pulls in files that its own signals (path
   * words, names) single out even when neither index ranked them high.
   */
  async chunksOf(blobs: string[], vector: Float32Array): Promise<(ChunkInfo & { cosine: number })[]> {
    const out: (ChunkInfo & { cosine: number })[] = [];
    for (const batch of batchesOf([...new Set(blobs)].filter((b) => /^[0-9a-f]{40,64}$/.test(b)), 500)) {
      const rows = await this.chunks.query().where(`blob IN (${batch.map((b) => `'${b}'`).join(',')})`).select([...INFO_COLUMNS, 'vector']).toArray();
      for (const r of rows) out.push({ ...rowToInfo(r), cosine: dot(r.vector as { toArray(): ArrayLike<number> }, vector) });
    }
    return out;
  }

  /** The full-text index over `terms`; created once, then kept current by compact(). */
  async ensureTextIndex(): Promise<void> {
    const indices = await this.chunks.listIndices();
    if (indices.some((i) => i.columns.includes('terms'))) return;
    if ((await this.chunks.countRows()) === 0) return;
    await this.chunks.createIndex('terms', {
      config: lancedb.Index.fts({ baseTokenizer: 'whitespace', lowercase: false, stem: true, language: 'English', removeStopWords: false, withPosition: false, asciiFolding: true }),
    });
  }

  /** Deletes every chunk and mark of these blobs; returns how many chunks went. */
  async deleteBlobs(blobs: string[]): Promise<number> {
    const before = await this.chunks.countRows();
    for (const batch of batchesOf(blobs.filter((b) => /^[0-9a-f]{40,64}$/.test(b)), 500)) {
      const filter = `blob IN (${batch.map((b) => `'${b}'`).join(',')})`;
      await this.chunks.delete(filter);
      await this.marks.delete(filter);
    }
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
    for (const table of [this.chunks, this.marks]) await table.optimize({ cleanupOlderThan: new Date(), deleteUnverified: false });
  }

  close(): void {
    this.chunks.close();
    this.marks.close();
    this.db.close();
  }

  /** Builds the Arrow batch column by column from typed arrays (row objects would be ~10× slower). */
  private toArrow(rows: ChunkRow[]): TableType {
    const schema = chunkSchema(this.dim);
    const vectors = new Float32Array(rows.length * this.dim);
    rows.forEach((r, i) => vectors.set(r.vector, i * this.dim));
    const strings = (f: (r: ChunkRow) => string) => vectorFromArray(rows.map(f), new Utf8()).data[0];
    const ints = (f: (r: ChunkRow) => number) => makeData({ type: new Int32(), length: rows.length, nullCount: 0, data: Int32Array.from(rows, f) });
    const vectorType = schema.fields[8].type as FixedSizeListType<Float32Type>;
    const children = [
      strings((r) => r.id),
      strings((r) => r.blob),
      ints((r) => r.startLine),
      ints((r) => r.endLine),
      strings((r) => r.language),
      strings((r) => r.symbol),
      strings((r) => r.text),
      strings((r) => r.terms),
      makeData({ type: vectorType, length: rows.length, nullCount: 0, child: makeData({ type: new Float32(), length: vectors.length, nullCount: 0, data: vectors }) }),
    ];
    const struct = makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children });
    return new ArrowTable([new RecordBatch(schema, struct)]);
  }
}

function batchesOf<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `a` is an Arrow list value as LanceDB returns rows (not indexable), or a plain array. */
function dot(value: ArrayLike<number> | { toArray(): ArrayLike<number> }, b: Float32Array): number {
  const a = 'toArray' in value ? value.toArray() : value;
  let sum = 0;
  for (let i = 0; i < b.length; i++) sum += a[i] * b[i];
  return sum;
}

function rowToInfo(r: Record<string, unknown>): ChunkInfo {
  return {
    id: r.id as string,
    blob: r.blob as string,
    startLine: r.start_line as number,
    endLine: r.end_line as number,
    language: r.language as string,
    symbol: r.symbol as string,
    text: r.text as string,
  };
}

export function dirSize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size;
  }
  return total;
}
