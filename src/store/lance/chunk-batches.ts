// Whole Arrow batches in and out of the chunks table, for share/: export streams them out, import adds them.
import type * as lancedb from '@lancedb/lancedb';
import type { RecordBatch as RecordBatchType, Table as TableType } from 'apache-arrow';
import arrow from '../arrow.js';
import { batchesAsStored, rowOf, rowsToArrow } from './chunk-arrow.js';
import { blobFilters } from './blob-filter.js';
import { CHUNK_COLUMNS } from '../chunk-columns.js';

/**
 * Every column of the chunks of these blobs, streamed in the Arrow batches LanceDB reads (for export): memory
 * holds one batch, never the whole set.
 */
export async function* chunkBatchesOf(chunks: lancedb.Table, blobs: string[]): AsyncGenerator<RecordBatchType> {
  for (const filter of blobFilters(blobs, 2000)) {
    const query = chunks.query().where(filter).select(CHUNK_COLUMNS);
    for await (const rows of query) yield rows as unknown as RecordBatchType;
  }
}

/**
 * Adds the rows of these batches whose id is not stored yet (nor in `stored`, when the caller tracks them), nor
 * earlier in the batches; returns how many were added. Plain batches of new rows go to LanceDB as they are.
 */
export async function addBatchesNotStored(chunks: lancedb.Table, dim: number, batches: RecordBatchType[], stored?: Set<string>): Promise<number> {
  const seen = stored ?? (await storedIds(chunks, batches.flatMap((b) => [...b.getChild('blob')!]) as string[]));
  const keep: [RecordBatchType, number][] = [];
  for (const batch of batches) {
    const ids = batch.getChild('id')!;
    for (let i = 0; i < batch.numRows; i++) {
      const id = ids.get(i) as string;
      if (seen.has(id)) continue;
      seen.add(id);
      keep.push([batch, i]);
    }
  }
  if (keep.length === 0) return 0;
  const total = batches.reduce((n, b) => n + b.numRows, 0);
  const plain = keep.length === total && batches.every((b) => CHUNK_COLUMNS.every((c) => b.getChild(c)?.data.length === 1 && b.getChild(c)!.data[0].offset === 0));
  await append(chunks, plain ? batchesAsStored(batches, dim) : rowsToArrow(keep.map(([b, i]) => rowOf(b, i)), dim));
  return keep.length;
}

/**
 * Appends rows in the store's own schema. LanceDB's add() encodes them as an Arrow IPC file for its native side,
 * then copies that file once more: every byte an import adds (30 MB for tokio), 5% of its time. So the file goes
 * to the native add() as it is; should a LanceDB upgrade move that method, the public add() is used.
 */
async function append(chunks: lancedb.Table, rows: TableType): Promise<void> {
  const native = (chunks as unknown as { inner?: { add?: (ipcFile: Buffer, mode: string) => Promise<unknown> } }).inner;
  if (typeof native?.add !== 'function') {
    await chunks.add(rows);
    return;
  }
  const ipc = arrow.tableToIPC(rows, 'file');
  await native.add(Buffer.from(ipc.buffer, ipc.byteOffset, ipc.byteLength), 'append');
}

async function storedIds(chunks: lancedb.Table, blobs: string[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const filter of blobFilters(new Set(blobs), 500)) {
    for await (const found of chunks.query().where(filter).select(['id'])) {
      const col = found.getChild('id')!;
      for (let i = 0; i < found.numRows; i++) ids.add(col.get(i) as string);
    }
  }
  return ids;
}
