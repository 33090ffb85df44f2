import type { Data, RecordBatch } from './arrow.js';
import { COLUMN, type ChunkField } from './chunk-columns.js';
import type { Utf8Bytes } from './content-key.js';

/** The fields of a chunk stored as strings, and as line numbers. */
export type TextField = 'id' | 'blob' | 'language' | 'symbol' | 'text' | 'terms' | 'contentKey';
type LineField = 'startLine' | 'endLine';

/** A chunk's fields, each read from a batch by row: strings, line numbers, and vectors viewed in the batch's memory. */
export type ChunkFieldReaders = { [F in TextField]: (row: number) => string } & { [F in LineField]: (row: number) => number } & {
  /** The row's floats, in place (empty for a null row). */
  vector: (row: number) => Float32Array;
};

/**
 * Readers of these fields of a chunk batch, typed by what each field is. Strings are decoded from their bytes as
 * written: Arrow's own accessor goes through a TextDecoder per value, 4× slower, and drops a value's leading
 * U+FEFF. Throws when the batch lacks a field: where batches come from outside, ask lacksFields first.
 */
export function readFields<F extends ChunkField>(batch: RecordBatch, fields: readonly F[]): Pick<ChunkFieldReaders, F> {
  const out: Partial<Record<ChunkField, (row: number) => unknown>> = {};
  for (const field of fields) {
    const data = dataOf(batch, field);
    if (!data) throw new Error(`a chunk batch without its ${field} column`);
    out[field] = field === 'vector' ? vectorsOf(data) : field === 'startLine' || field === 'endLine' ? linesOf(data) : stringsOf(data);
  }
  return out as Pick<ChunkFieldReaders, F>;
}

/** Whether the batch lacks any of these fields (a batch from a remote store may be anything). */
export function lacksFields(batch: RecordBatch, fields: readonly ChunkField[]): boolean {
  return fields.some((f) => !dataOf(batch, f));
}

/**
 * A string field's bytes, undecoded, for checks of rows from outside: how long a value is before it is read, and
 * the value read as latin1, far cheaper than UTF-8 for fields that must be ASCII (a byte outside it still fails
 * the comparison the value is read for).
 */
export function rawStrings(batch: RecordBatch, field: TextField): { bytes(row: number): number; latin1(row: number): string } {
  const data = dataOf(batch, field)!;
  const offsets = data.valueOffsets as Int32Array;
  const values = data.values ?? new Uint8Array(0);
  const text = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  return { bytes: (row) => offsets[row + 1] - offsets[row], latin1: (row) => text.toString('latin1', offsets[row], offsets[row + 1]) };
}

/** A string field's bytes as the batch holds them, to hash without decoding (content-key.ts, keysOfBytes). */
export function utf8BytesOf(batch: RecordBatch, field: TextField): Utf8Bytes {
  return utf8BytesOfData(dataOf(batch, field)!);
}

/** A string column's bytes as it holds them (content-key.ts, keysOfBytes). */
export function utf8BytesOfData(data: Data): Utf8Bytes {
  return { valueOffsets: data.valueOffsets as Int32Array, values: (data.values as Uint8Array | undefined) ?? new Uint8Array(0) };
}

function dataOf(batch: RecordBatch, field: ChunkField): Data | undefined {
  return batch.getChild(COLUMN[field])?.data[0];
}

function stringsOf(data: Data): (row: number) => string {
  const offsets = data.valueOffsets as Int32Array;
  const values = data.values as Uint8Array;
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  return (row) => bytes.toString('utf8', offsets[row], offsets[row + 1]);
}

function linesOf(data: Data): (row: number) => number {
  const values = data.values as Int32Array;
  return (row) => values[row];
}

function vectorsOf(list: Data): (row: number) => Float32Array {
  const dim = (list.type as unknown as { listSize: number }).listSize;
  const floats = list.children[0].values as Float32Array;
  const empty = new Float32Array(0);
  return (row) => (list.nullCount > 0 && !list.getValid(row) ? empty : floats.subarray(row * dim, (row + 1) * dim));
}
