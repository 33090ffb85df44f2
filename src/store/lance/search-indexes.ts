import './lance-env.js';
import * as lancedb from '@lancedb/lancedb';
import type { RecordBatch } from 'apache-arrow';
import arrow from '../arrow.js';
import { checkStoredBatch } from '../batch-integrity.js';
import type { NeedsContent, StoreHits } from '../contract.js';
import { isLargeStore, LARGE_VIEW_CHUNKS, markLargeStore } from '../large-store.js';
import type { StoreLocation } from '../layout.js';
import { batchOf, takeColumn, type RowRef } from './arrow-take.js';
import { refsByKeyOf } from './refs-by-key.js';
import { CHUNK_COLUMNS, COLUMN } from '../chunk-columns.js';
import { CONTENT_COLUMNS, fieldsOf, KEY, REF_COLUMNS } from './chunk-arrow.js';

/** Below this many rows a vector index is not worth building: exact search over them takes milliseconds. */
const MIN_VECTOR_INDEX_ROWS = 10_000;

/** The column of a hit's row id, asked for when its content is read afterwards. */
const ROW_ID = '_rowid';

/**
 * The vector index is IVF_RQ (partitions, then RaBitQ: one bit per dimension, re-ranked by exact distance).
 * On the 317,396 contents of the 50,000-file synthetic store (2 cores, both busy with other work) it built in
 * 16 s with recall@10 0.95 against exact search, where IVF_PQ (32 sub-vectors, 20 k-means rounds) took 226 s for
 * 0.82: PQ trains 256 centroids per sub-vector, RaBitQ trains nothing beyond the partitions. Search p50 5.9 ms
 * against 9.2 ms. Stores indexed before keep their IVF_PQ index; both are searched the same way.
 */
const KMEANS_ITERATIONS = 20;

/** Partitions searched per query and the re-ranking of PQ distances by exact ones (recall 0.905 → measured). */
const NPROBES = 20;
const REFINE_FACTOR = 5;

/**
 * Where a store's chunks are for its indexes: the table with their text and vectors (`contents`, one row per
 * distinct content), and the chunk references that name them (`refs`: null in the one-table layout of old
 * stores, whose rows are chunks with everything).
 */
export interface IndexedTables {
  contents: lancedb.Table;
  refs: lancedb.Table | null;
  /** Where the tables are, for damage reports. */
  dir: string;
}

function refsOf(tables: IndexedTables, keys: string[], window: number): Promise<Map<string, RowRef[]>> {
  return refsByKeyOf(tables.refs!, tables.dir).of(keys, window);
}

/**
 * Builds the search indexes a large view needs, once each, then marks the store as large. A store none of whose
 * views is large is searched in memory and gets none, however much history it holds (they would only cost index
 * time and disk). `chunks` is the store's chunk count; `viewChunks` counts the chunks of the view just indexed, up
 * to the budget. Size is counted in chunks, the indexes cover the distinct contents.
 */
export async function ensureSearchIndexes(tables: IndexedTables, chunks: number, location: StoreLocation, viewChunks: (limit: number) => Promise<number>, onNotice?: (message: string) => void): Promise<void> {
  // No view holds more chunks than the store.
  if (chunks < LARGE_VIEW_CHUNKS) return;
  if (!isLargeStore(location) && (await viewChunks(LARGE_VIEW_CHUNKS)) < LARGE_VIEW_CHUNKS) return;
  const { contents } = tables;
  const rows = await contents.countRows();
  const indexed = new Set((await contents.listIndices()).flatMap((i) => i.columns));
  // The vector index first: its build ends in the run's sharpest native peak (~150 MB for half a second on the
  // 50,000-file store), which stacked on what the full-text build had left allocated when it came second.
  if (!indexed.has(COLUMN.vector) && rows >= MIN_VECTOR_INDEX_ROWS) {
    onNotice?.(`ocrag: ${chunks} chunks: building the vector index (once)`);
    // LanceDB's rule of thumb, ~4k rows per partition.
    const numPartitions = Math.max(1, Math.round(rows / 4096));
    await contents.createIndex(COLUMN.vector, { config: lancedb.Index.ivfRq({ numPartitions, distanceType: 'cosine', maxIterations: KMEANS_ITERATIONS }) });
  }
  if (!indexed.has(COLUMN.terms)) {
    onNotice?.(`ocrag: ${chunks} chunks: building the full-text index`);
    await ensureTextIndex(contents);
  }
  markLargeStore(location, chunks);
}

/** The full-text index over `terms`; created once, then kept current by compaction (LanceDB's optimize). */
export async function ensureTextIndex(contents: lancedb.Table): Promise<void> {
  const indices = await contents.listIndices();
  if (indices.some((i) => i.columns.includes(COLUMN.terms))) return;
  if ((await contents.countRows()) === 0) return;
  await contents.createIndex(COLUMN.terms, {
    config: lancedb.Index.fts({ baseTokenizer: 'whitespace', lowercase: false, stem: true, language: 'English', removeStopWords: false, withPosition: false, asciiFolding: true }),
  });
}

/**
 * The chunks of the `limit` nearest contents and of the `limit` best full-text matches, with the columns ranking
 * needs: every chunk of a content found (the caller keeps its view's), nearest content first. With `needsContent`
 * (chunk references only), the hits are found with their keys alone, and only the contents some chunk of which it
 * asks for are read afterwards, in one read by row id (see NeedsContent).
 */
export async function queryStore(tables: IndexedTables, dim: number, vector: Float32Array, words: string, limit: number, needsContent?: NeedsContent): Promise<StoreHits> {
  const { contents } = tables;
  const taking = needsContent && tables.refs ? needsContent : undefined;
  // A candidate row carries every chunk column: enough to rank it and show it.
  const columns = !tables.refs ? CHUNK_COLUMNS : taking ? [KEY] : [KEY, ...CONTENT_COLUMNS];
  const near = contents.vectorSearch(vector).distanceType('cosine').nprobes(NPROBES).refineFactor(REFINE_FACTOR).limit(limit).select([...columns, '_distance']);
  const text = words.trim() ? contents.search(words, 'fts', COLUMN.terms).limit(limit).select([...columns, '_score']) : null;
  if (taking) for (const query of [near, text]) query?.withRowId();
  let [nearBatches, textBatches] = await Promise.all([collect(near, tables.dir), text ? collect(text, tables.dir) : Promise.resolve([])]);
  if (tables.refs) {
    const refs = await refsOf(tables, [...nearBatches, ...textBatches].flatMap((b) => [...b.getChild(KEY)!] as string[]), limit);
    const taken = taking ? await neededContents(tables, [...nearBatches, ...textBatches], refs, taking) : null;
    // A row taken was not the content its hit named: the table changed between the reads, so read it all at once.
    if (taken === 'changed') return queryStore(tables, dim, vector, words, limit);
    const contentOf = (hits: RecordBatch) => (row: number) => (taken ? (taken.get(hits.getChild(KEY)!.get(row) as string) ?? null) : { batch: hits, row });
    [nearBatches, textBatches] = [nearBatches, textBatches].map((batches) => batches.flatMap((b) => chunksOfContents(b, refs, contentOf(b), dim)));
  }
  const nearest: string[] = [];
  for (const b of nearBatches) for (const id of b.getChild(COLUMN.id)!) nearest.push(id as string);
  const textScores = new Map<string, number>();
  for (const b of textBatches) {
    const ids = b.getChild(COLUMN.id)!;
    const scores = b.getChild('_score')!;
    for (let i = 0; i < b.numRows; i++) textScores.set(ids.get(i) as string, scores.get(i) as number);
  }
  return { rows: [...nearBatches, ...textBatches], textScores, nearest };
}

/**
 * The contents of these hits that some chunk of theirs needs (`needsContent` of its id and blob), taken by the
 * hits' row ids in one read, by key; 'changed' when a row taken is not the content its hit named.
 */
async function neededContents(tables: IndexedTables, hits: RecordBatch[], refs: Map<string, RowRef[]>, needsContent: NeedsContent): Promise<Map<string, RowRef> | 'changed'> {
  const decided = new Set<string>();
  const rowIds: bigint[] = [];
  const needed: string[] = [];
  const chunk = (ref: RowRef) => [ref.batch.getChild(COLUMN.id)!.get(ref.row) as string, ref.batch.getChild(COLUMN.blob)!.get(ref.row) as string] as const;
  for (const b of hits) {
    const [keys, ids] = [b.getChild(KEY)!, b.getChild(ROW_ID)!];
    for (let row = 0; row < b.numRows; row++) {
      const key = keys.get(row) as string;
      if (decided.has(key)) continue;
      decided.add(key);
      if (!(refs.get(key) ?? []).some((ref) => needsContent(...chunk(ref)))) continue;
      needed.push(key);
      rowIds.push(ids.get(row) as bigint);
    }
  }
  const taken = new Map<string, RowRef>();
  if (!rowIds.length) return taken;
  for (const batch of await collect(tables.contents.takeRowIds(rowIds).select([KEY, ...CONTENT_COLUMNS]), tables.dir)) {
    const keys = batch.getChild(KEY)!;
    for (let row = 0; row < batch.numRows; row++) taken.set(keys.get(row) as string, { batch, row });
  }
  return taken.size === needed.length && needed.every((k) => taken.has(k)) ? taken : 'changed';
}

/** Best BM25 matches over `terms`: the chunks of the `limit` best contents, best first. */
export async function textMatches(tables: IndexedTables, words: string, limit: number): Promise<{ id: string; score: number }[]> {
  await ensureTextIndex(tables.contents);
  const rows = await tables.contents.search(words, 'fts', COLUMN.terms).limit(limit).select([tables.refs ? KEY : COLUMN.id, '_score']).toArray();
  if (!tables.refs) return rows.map((r) => ({ id: r.id as string, score: r._score as number }));
  const refs = await refsOf(tables, rows.map((r) => r[KEY] as string), limit);
  return rows.flatMap((r) => (refs.get(r[KEY] as string) ?? []).map((ref) => ({ id: ref.batch.getChild(COLUMN.id)!.get(ref.row) as string, score: r._score as number })));
}

/**
 * A batch of content hits as the chunks that have them, in its order: candidate columns, plus the hit's
 * `_distance` or `_score`. The content columns are those of `contentOf` the hit's row; a run of hits it gives none
 * of (no chunk of theirs was needed) comes as a batch of its own with the reference columns only.
 */
function chunksOfContents(hits: RecordBatch, refs: Map<string, RowRef[]>, contentOf: (row: number) => RowRef | null, dim: number): RecordBatch[] {
  const extra = hits.schema.fields.filter((f) => f.name.startsWith('_') && f.name !== ROW_ID);
  const keys = hits.getChild(KEY)!;
  const runs: { refRows: RowRef[]; hitRows: RowRef[]; contentRows: RowRef[]; whole: boolean }[] = [];
  for (let row = 0; row < hits.numRows; row++) {
    const content = contentOf(row);
    for (const ref of refs.get(keys.get(row) as string) ?? []) {
      let run = runs.at(-1);
      if (run?.whole !== (content !== null)) runs.push((run = { refRows: [], hitRows: [], contentRows: [], whole: content !== null }));
      run.refRows.push(ref);
      run.hitRows.push({ batch: hits, row });
      if (content) run.contentRows.push(content);
    }
  }
  return runs.map(({ refRows, hitRows, contentRows, whole }) => {
    const columns = whole ? CHUNK_COLUMNS : REF_COLUMNS;
    const schema = new arrow.Schema([...fieldsOf(columns, dim).fields, ...extra]);
    const children = schema.fields.map((f) => takeColumn(f.name, f.type, REF_COLUMNS.includes(f.name) ? refRows : f.name.startsWith('_') ? hitRows : contentRows));
    return batchOf(schema, children, refRows.length);
  });
}

/** The batches of a query's hits, each checked (batch-integrity.ts). */
async function collect(query: AsyncIterable<unknown>, where: string): Promise<RecordBatch[]> {
  const out: RecordBatch[] = [];
  for await (const batch of query) {
    checkStoredBatch(batch as RecordBatch, where);
    out.push(batch as RecordBatch);
  }
  return out;
}
