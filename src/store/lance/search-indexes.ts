import './lance-env.js';
import * as lancedb from '@lancedb/lancedb';
import type { RecordBatch } from 'apache-arrow';
import type { StoreHits } from '../contract.js';
import { isLargeStore, LARGE_VIEW_CHUNKS, markLargeStore } from '../large-store.js';
import type { StoreLocation } from '../layout.js';

/** Product quantisation trains 256 centroids per sub-vector: below this many rows a vector index is not worth it. */
const MIN_VECTOR_INDEX_ROWS = 10_000;

/** Columns a candidate row carries: enough to rank it and show it. */
export const CANDIDATE_COLUMNS = ['id', 'blob', 'start_line', 'end_line', 'language', 'symbol', 'text', 'terms', 'vector'];

/** Partitions searched per query and the re-ranking of PQ distances by exact ones (recall 0.905 → measured). */
const NPROBES = 20;
const REFINE_FACTOR = 5;

/**
 * Builds the search indexes a large view needs, once each, then marks the store as large. A store none of whose
 * views is large is searched in memory and gets none, however much history it holds (they would only cost index
 * time and disk). `viewChunks` counts the chunks of the view just indexed, up to the budget.
 */
export async function ensureSearchIndexes(chunks: lancedb.Table, location: StoreLocation, viewChunks: (limit: number) => Promise<number>, onNotice?: (message: string) => void): Promise<void> {
  const rows = await chunks.countRows();
  // No view holds more chunks than the store.
  if (rows < LARGE_VIEW_CHUNKS) return;
  if (!isLargeStore(location) && (await viewChunks(LARGE_VIEW_CHUNKS)) < LARGE_VIEW_CHUNKS) return;
  const indexed = new Set((await chunks.listIndices()).flatMap((i) => i.columns));
  if (!indexed.has('terms')) {
    onNotice?.(`ocrag: ${rows} chunks: building the full-text index`);
    await ensureTextIndex(chunks);
  }
  if (!indexed.has('vector') && rows >= MIN_VECTOR_INDEX_ROWS) {
    onNotice?.(`ocrag: ${rows} chunks: building the vector index (a few minutes, once)`);
    // LanceDB's rule of thumb, ~4k rows per partition; 32 sub-vectors of 16 dimensions each for 512-d vectors.
    const numPartitions = Math.max(1, Math.round(rows / 4096));
    await chunks.createIndex('vector', { config: lancedb.Index.ivfPq({ numPartitions, numSubVectors: 32, distanceType: 'cosine' }) });
  }
  markLargeStore(location, rows);
}

/** The full-text index over `terms`; created once, then kept current by compaction (LanceDB's optimize). */
export async function ensureTextIndex(chunks: lancedb.Table): Promise<void> {
  const indices = await chunks.listIndices();
  if (indices.some((i) => i.columns.includes('terms'))) return;
  if ((await chunks.countRows()) === 0) return;
  await chunks.createIndex('terms', {
    config: lancedb.Index.fts({ baseTokenizer: 'whitespace', lowercase: false, stem: true, language: 'English', removeStopWords: false, withPosition: false, asciiFolding: true }),
  });
}

/** The `limit` nearest chunks and the `limit` best full-text matches, with the columns ranking needs. */
export async function queryStore(chunks: lancedb.Table, vector: Float32Array, words: string, limit: number): Promise<StoreHits> {
  const near = chunks.vectorSearch(vector).distanceType('cosine').nprobes(NPROBES).refineFactor(REFINE_FACTOR).limit(limit).select([...CANDIDATE_COLUMNS, '_distance']);
  const text = words.trim() ? chunks.search(words, 'fts', 'terms').limit(limit).select([...CANDIDATE_COLUMNS, '_score']) : null;
  const [nearBatches, textBatches] = await Promise.all([collect(near), text ? collect(text) : Promise.resolve([])]);
  const nearest: string[] = [];
  for (const b of nearBatches) for (const id of b.getChild('id')!) nearest.push(id as string);
  const textScores = new Map<string, number>();
  for (const b of textBatches) {
    const ids = b.getChild('id')!;
    const scores = b.getChild('_score')!;
    for (let i = 0; i < b.numRows; i++) textScores.set(ids.get(i) as string, scores.get(i) as number);
  }
  return { rows: [...nearBatches, ...textBatches], textScores, nearest };
}

async function collect(query: AsyncIterable<unknown>): Promise<RecordBatch[]> {
  const out: RecordBatch[] = [];
  for await (const batch of query) out.push(batch as RecordBatch);
  return out;
}
