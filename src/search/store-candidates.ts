import { readFields } from '../store/chunk-batch.js';
import type { ChunkBatch } from '../store/contract.js';
import type { StoreHandle } from '../store/store-handle.js';
import { visibleChunks, type VisibleChunks } from './lexical.js';
import type { QueryInfo } from './query.js';
import { ResidentChunks } from './resident.js';
import { RowMemo, type IndexedRow } from './row-memo.js';
import type { SearchView } from './view.js';

/**
 * A large view's best chunks for one query, from its vector and full-text indexes, held in a set of their own:
 * ranking then sees only these candidates. The indexes cover every branch, so the window widens until enough
 * of the view's chunks come back.
 */
export async function fromStoreIndexes(store: StoreHandle, view: SearchView, q: QueryInfo, settings: { perSource: number; lexical: boolean }, vector: Promise<Float32Array>): Promise<{ resident: ResidentChunks; visible: VisibleChunks; lexical: Map<number, number> }> {
  const chunks = await store.get();
  const wanted = new Set(view.byBlob.keys());
  const words = settings.lexical ? q.terms.join(' ') : '';
  const memo = rowMemoOf(store);
  for (let limit = settings.perSource; ; limit *= 4) {
    // Asked first for the hits' keys, the store reads the contents of the view's chunks the memo lacks, and no
    // others; those it has are kept in hand.
    const held = new Map<string, IndexedRow>();
    const needsContent = (id: string, blob: string) => {
      if (!wanted.has(blob)) return false;
      const row = memo.rows.peek(id, blob);
      if (row) held.set(id, row);
      return !row;
    };
    const hits = await chunks.queryIndexes(await vector, words, limit, memo.heldShare >= KEYS_FIRST_SHARE ? needsContent : undefined);
    memo.heldShare = heldShare(hits.rows, wanted, (id, blob) => held.has(id) || memo.rows.peek(id, blob) !== undefined);
    const resident = new ResidentChunks(store.dim);
    resident.rowMemo = memo.rows;
    resident.heldRows = held;
    const seen = new Set<string>();
    for (const batch of hits.rows) resident.add(batch, wanted, seen);
    const visibleIds = resident.idIndex();
    // A list is done when it holds enough of the view's chunks, or when the store has no more to give.
    const done = (ids: string[]) => ids.length < limit || ids.filter((id) => visibleIds.has(id)).length >= settings.perSource;
    if (limit < MAX_STORE_WINDOW && !(done(hits.nearest) && (!words || done([...hits.textScores.keys()])))) continue;
    const lexical = new Map<number, number>();
    for (const [id, score] of hits.textScores) if (visibleIds.has(id)) lexical.set(visibleIds.get(id)!, score);
    return { resident, visible: visibleChunks(resident, resident.chunksOf(view, wanted)), lexical };
  }
}

/**
 * From what share of a search's chunks already in the memo the next search asks the store for its hits' keys
 * first, then reads only the contents the memo lacks (NeedsContent, store/contract.ts). The search before predicts
 * the next: an agent's questions on one subject bring back many of the same chunks. Measured on sympy's store
 * (52,200 chunks, 55 queries interleaved, load 18–20): whole rows 54.6 ms a query, keys first with every content
 * read after 64.0 ms, with none 40.2 ms; keys first wins while under (54.6 − 40.2) / (64.0 − 40.2) = 0.6 of the
 * contents are read after.
 */
const KEYS_FIRST_SHARE = 0.5;

/** The share of these rows' chunks of the view that `kept` has. */
function heldShare(rows: ChunkBatch[], wanted: Set<string>, kept: (id: string, blob: string) => boolean): number {
  let asked = 0;
  let found = 0;
  for (const batch of rows) {
    const { id, blob } = readFields(batch, ['id', 'blob']);
    for (let r = 0; r < batch.numRows; r++) {
      if (!wanted.has(blob(r))) continue;
      asked++;
      if (kept(id(r), blob(r))) found++;
    }
  }
  return asked ? found / asked : 0;
}

/**
 * Rows a long-lived server keeps indexed for a large view's next queries (row-memo.ts): at ~2 KB each (text,
 * stems, int8 vector) 16,384 are ~30 MB, and hold the candidates of dozens of queries (~300 rows each).
 */
const MEMO_ROWS = 16_384;

let rowMemo: { store: string; rows: RowMemo; heldShare: number } | null = null;

/** The row memo of this store incarnation (one at a time: a server searches one repository's store at once). */
function rowMemoOf(store: StoreHandle): { rows: RowMemo; heldShare: number } {
  const key = `${store.layout.tables}\n${store.generation}`;
  if (rowMemo?.store !== key) rowMemo = { store: key, rows: new RowMemo(MEMO_ROWS), heldShare: 0 };
  return rowMemo;
}

/** Beyond this many rows per index and query, a view is too small a part of the store to find this way. */
const MAX_STORE_WINDOW = 10_000;
