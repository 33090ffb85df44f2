// Whole Arrow batches of chunks in and out of the store, for share/: export streams them out, import adds them.
import type * as lancedb from '@lancedb/lancedb';
import type { Data as DataType, RecordBatch as RecordBatchType, Table as TableType } from 'apache-arrow';
import arrow from '../arrow.js';
import { keysOfBytes } from '../content-key.js';
import { readFields, utf8BytesOf } from '../chunk-batch.js';
import { CHUNK_COLUMNS, COLUMN } from '../chunk-columns.js';
import { crashPoint } from '../../util/crash-point.js';
import { checkStoredBatch } from '../batch-integrity.js';
import { batchOf, takeColumn, type RowRef } from './arrow-take.js';
import { blobFilters } from './blob-filter.js';
import { contentSchema, CONTENT_COLUMNS, refSchema, utf8Column } from './chunk-arrow.js';
import { isRemoteTables } from './connect.js';
import { isObjectId } from '../../git/object-id.js';
import { joinContents, refColumnsFor, storedKeys } from './content-join.js';


/** The two tables of a store's chunks: references (place and content key) and contents (once each). */
export interface ChunkTables {
  refs: lancedb.Table;
  contents: lancedb.Table;
  dim: number;
  /** Where the tables are, for damage reports. */
  dir: string;
}

/**
 * Every column of the chunks of these blobs, streamed in the batches LanceDB reads the references in (for export):
 * memory holds one batch and its contents, never the whole set.
 */
export function chunkBatchesOf(tables: ChunkTables, blobs: string[]): AsyncGenerator<RecordBatchType> {
  return joinContents(refsOf(tables.refs, blobFilters(blobs, 2000), refColumnsFor(CHUNK_COLUMNS), tables.dir), tables.contents, CHUNK_COLUMNS, tables.dim, tables.dir);
}

/**
 * A local read of chunks with their contents reads every reference in one scan, each one checked
 * (batch-integrity.ts), unless it wants at most this many blobs of a table of more than SCANNED_REFS references:
 * then a filter on the blob column. A filter never sees a reference whose blob a damaged file garbled (such chunks
 * just went missing: other answers, exit 0), and it reads the whole blob column once per this many blobs, so a
 * view's first load (every blob) costs no more by a scan. What stays filtered is what an index run just added.
 */
const FILTERED_BLOBS = 500;
const SCANNED_REFS = 20_000;

/**
 * Chosen columns of the chunks of these blobs (null: of every chunk), streamed in the order they were added;
 * `contents` is null in the one-table layout, whose references hold everything. A read of references alone may
 * answer a long list with every row.
 */
export async function* chunkColumnsOf(refs: lancedb.Table, contents: lancedb.Table | null, dim: number, dir: string, blobs: string[] | null, columns: string[]): AsyncGenerator<RecordBatchType> {
  const wanted = blobs && new Set(blobs.filter(isObjectId));
  if (wanted && wanted.size === 0) return;
  if (!contents || !columns.some((c) => CONTENT_COLUMNS.includes(c))) {
    yield* refsOf(refs, !wanted || wanted.size > 2000 ? [null] : blobFilters(wanted, FILTERED_BLOBS), columns, dir);
    return;
  }
  const remote = isRemoteTables(dir);
  const scan = !wanted || wanted.size > 2000 || (!remote && (wanted.size > FILTERED_BLOBS || (await refs.countRows()) <= SCANNED_REFS));
  // On a remote, the wanted blobs go along either way: a join wanting most of its contents reads them in one scan.
  const keep = wanted && (scan || remote) ? wanted : undefined;
  yield* joinContents(refsOf(refs, scan ? [null] : blobFilters(wanted!, FILTERED_BLOBS), refColumnsFor(columns), dir), contents, columns, dim, dir, keep);
}

/** The references matching these filters (null: all), streamed, each batch checked (batch-integrity.ts). */
export async function* refsOf(refs: lancedb.Table, filters: (string | null)[], columns: string[], where: string): AsyncGenerator<RecordBatchType> {
  for (const filter of filters) {
    const query = refs.query().select(columns);
    for await (const batch of filter ? query.where(filter) : query) {
      checkStoredBatch(batch as unknown as RecordBatchType, where);
      yield batch as unknown as RecordBatchType;
    }
  }
}

/** What a store being built alone has added so far, so writes need not ask it. */
export interface Added {
  ids: Set<string>;
  keys: Set<string>;
}

/**
 * Adds the rows of these batches (every chunk column) whose id is not stored yet (nor in `added`, when the caller
 * tracks them), nor earlier in the batches: their contents not stored yet, then their references. Returns how
 * many chunks were added.
 */
export async function addBatchesNotStored(tables: ChunkTables, batches: RecordBatchType[], added?: Added): Promise<number> {
  const ids = added?.ids ?? (await storedIds(tables.refs, batches.flatMap((b) => [...b.getChild(COLUMN.blob)!]) as string[]));
  const keep: RowRef[] = [];
  const keys: string[] = [];
  for (const batch of batches) {
    // Keyed from their bytes: decoding every text (Arrow's accessor, a TextDecoder per value) cost more than hashing it.
    // A row that is not valid UTF-8 is keyed from its strings read as written (Arrow's accessor drops a leading U+FEFF).
    const { id, symbol, text } = readFields(batch, ['id', 'symbol', 'text']);
    const keyOf = keysOfBytes([utf8BytesOf(batch, 'symbol'), utf8BytesOf(batch, 'text')], (row) => [symbol(row), text(row)]);
    for (let row = 0; row < batch.numRows; row++) {
      const rowId = id(row);
      if (ids.has(rowId)) continue;
      ids.add(rowId);
      keep.push({ batch, row });
      keys.push(keyOf(row));
    }
  }
  if (keep.length === 0) return 0;
  const storedBefore = added?.keys ?? (await storedKeys(tables.contents, keys));
  const fresh: RowRef[] = [];
  const freshKeys: string[] = [];
  keep.forEach((r, i) => {
    if (storedBefore.has(keys[i])) return;
    storedBefore.add(keys[i]);
    fresh.push(r);
    freshKeys.push(keys[i]);
  });
  if (fresh.length) await append(tables.contents, rowsIn(contentSchema(tables.dim), fresh, freshKeys));
  crashPoint('store.contents');
  await append(tables.refs, rowsIn(refSchema(), keep, keys));
  return keep.length;
}

/**
 * These rows in the columns of `schema`, their content keys as its key column. A run of a batch's rows in order (an
 * import into a new store takes every row, its contents all but the repeated ones) lends its columns as they are:
 * copying them cost an import its every byte once more (tokio: 45 MB) and the garbage collector's time.
 */
export function rowsIn(schema: ReturnType<typeof refSchema>, rows: RowRef[], keys: string[]): TableType {
  const parts: RecordBatchType[] = [];
  const lendable = new Map<RecordBatchType, Map<string, DataType> | null>();
  let loose = 0;
  const copyLoose = (to: number) => {
    if (to > loose) parts.push(batchOf(schema, schema.fields.map((f) => (f.name === COLUMN.contentKey ? utf8Column(keys.slice(loose, to)) : takeColumn(f.name, f.type, rows.slice(loose, to)))), to - loose));
  };
  for (let i = 0; i < rows.length; ) {
    const { batch, row } = rows[i];
    let end = i + 1;
    while (end < rows.length && rows[end].batch === batch && rows[end].row === row + (end - i)) end++;
    if (!lendable.has(batch)) lendable.set(batch, lentColumns(schema, batch));
    const lent = lendable.get(batch);
    if (lent && end - i >= MIN_LENT_ROWS) {
      copyLoose(i);
      parts.push(batchOf(schema, schema.fields.map((f) => (f.name === COLUMN.contentKey ? utf8Column(keys.slice(i, end)) : lent.get(f.name)!.slice(row, end - i))), end - i));
      loose = end;
    }
    i = end;
  }
  copyLoose(rows.length);
  return new arrow.Table(parts);
}

/** Shorter runs are copied together: each batch lent costs its own metadata in the write. */
const MIN_LENT_ROWS = 32;

/** The columns of `schema` (the key aside) of a batch, when they are plain ones of the schema's types; else null. */
function lentColumns(schema: ReturnType<typeof refSchema>, batch: RecordBatchType): Map<string, DataType> | null {
  const columns = new Map<string, DataType>();
  for (const field of schema.fields) {
    if (field.name === COLUMN.contentKey) continue;
    const child = batch.getChild(field.name);
    const data = child?.data.length === 1 ? child.data[0] : null;
    if (!data || data.nullCount !== 0 || data.length !== batch.numRows || !arrow.util.compareTypes(data.type, field.type)) return null;
    columns.set(field.name, data);
  }
  return columns;
}

/**
 * Appends rows in the table's own schema. LanceDB's add() encodes them as an Arrow IPC file for its native side,
 * then copies that file once more: every byte an import adds (30 MB for tokio), 5% of its time. So the file goes
 * to the native add() as it is; should a LanceDB upgrade move that method, the public add() is used.
 */
export async function append(table: lancedb.Table, rows: TableType): Promise<void> {
  const native = (table as unknown as { inner?: { add?: (ipcFile: Buffer, mode: string) => Promise<unknown> } }).inner;
  if (typeof native?.add !== 'function') {
    await table.add(rows);
    return;
  }
  const ipc = arrow.tableToIPC(rows, 'file');
  await native.add(Buffer.from(ipc.buffer, ipc.byteOffset, ipc.byteLength), 'append');
}

async function storedIds(refs: lancedb.Table, blobs: string[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const filter of blobFilters(new Set(blobs), 500)) {
    for await (const found of refs.query().where(filter).select([COLUMN.id])) {
      const col = found.getChild(COLUMN.id)!;
      for (let i = 0; i < found.numRows; i++) ids.add(col.get(i) as string);
    }
  }
  return ids;
}
