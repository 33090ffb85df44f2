import { isUtf8 } from 'node:buffer';
import os from 'node:os';
import { ArtifactError } from '../util/errors.js';
import { shown } from '../util/shown.js';
import arrow, { type Data, type DataType, type Schema, type Utf8 } from './arrow.js';
import { CHUNK_FIELDS, COLUMN, columnsOf, type ChunkField } from './chunk-columns.js';
import type { ChunkBatch } from './contract.js';

/** A chunk batch as bytes: its fields but the vector as an Arrow IPC stream, and its vectors as raw little-endian float32s. */
export interface ChunkBytes {
  columns: Buffer;
  vectors: Buffer;
}

/** Names of the two halves, for messages (an artifact's entries). */
export interface ChunkBytesNames {
  columns: string;
  vectors: string;
}

/** A batch decoded from bytes and checked down to its buffers, before its rows are: see decodeChunkBytes. */
export interface DecodedChunks {
  /** Every field but the vector. */
  columns: ChunkBatch;
  vectors: Float32Array;
  /** The first row whose vector holds a value that is not a finite number, or -1. */
  nonFiniteRow: number;
}

/** Every field but the vectors, which travel apart. */
const ROW_FIELDS = CHUNK_FIELDS.filter((f) => f !== 'vector');
const ROW_COLUMNS = columnsOf(ROW_FIELDS);
const STRING_COLUMNS = columnsOf(['id', 'blob', 'language', 'symbol', 'text', 'terms'] satisfies ChunkField[]);
const LINE_COLUMNS = columnsOf(['startLine', 'endLine'] satisfies ChunkField[]);
const BIG_ENDIAN = os.endianness() === 'BE';

/** Cuts a batch of every chunk field into byte pairs of at most `rowsPerPart` rows. */
export function* encodeChunkBytes(batch: ChunkBatch, dim: number, rowsPerPart: number): Generator<ChunkBytes> {
  for (let start = 0; start < batch.numRows; start += rowsPerPart) {
    const slice = batch.slice(start, Math.min(start + rowsPerPart, batch.numRows));
    const ipc = arrow.tableToIPC(new arrow.Table(slice.select(ROW_COLUMNS)), 'stream');
    // A slice's values start at its first row.
    const floats = (slice.getChild(COLUMN.vector)!.data[0].children[0].values as Float32Array).subarray(0, slice.numRows * dim);
    const vectors = Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
    yield { columns: Buffer.from(ipc.buffer, ipc.byteOffset, ipc.byteLength), vectors: BIG_ENDIAN ? Buffer.from(vectors).swap32() : vectors };
  }
}

/**
 * Decodes bytes from outside (an artifact) and checks them down to the buffers, since the batch goes to the store
 * as it is: one batch, the store's columns and types, no nulls, string offsets in bounds on UTF-8 boundaries, line
 * numbers for every row, exactly `dim` floats per row. What the rows say is the caller's to check, with readFields
 * and rawStrings (chunk-batch.ts), before joinVectors makes the batch to store. Failures are ArtifactErrors.
 */
export function decodeChunkBytes(names: ChunkBytesNames, bytes: ChunkBytes, dim: number): DecodedChunks {
  const name = names.columns;
  let columns: ChunkBatch;
  try {
    const table = arrow.tableFromIPC(bytes.columns);
    checkSchema(name, table.schema);
    if (table.batches.length !== 1 || table.batches[0].numRows === 0) throw new ArtifactError(`artifact entry ${name} must hold exactly one non-empty batch`);
    columns = table.batches[0];
  } catch (e) {
    if (e instanceof ArtifactError) throw e;
    throw new ArtifactError(`artifact entry ${name} is not a valid Arrow stream (${shown(String((e as Error).message))})`);
  }
  const fail = (member: string, what: string): never => {
    throw new ArtifactError(`artifact entry ${member}: ${what}`);
  };
  const rows = columns.numRows;
  for (const column of ROW_COLUMNS) {
    const data = columns.getChild(column)!.data;
    if (data.length !== 1 || data[0].offset !== 0 || data[0].nullCount !== 0 || data[0].length !== rows) fail(name, `column ${column} is not one plain, complete column`);
  }
  for (const column of STRING_COLUMNS) {
    const problem = utf8Problem(columns.getChild(column)!.data[0] as Data<Utf8>);
    if (problem) fail(name, `column ${column}: ${problem}`);
  }
  if (bytes.vectors.length !== rows * dim * 4) fail(names.vectors, `holds ${bytes.vectors.length} bytes, not the ${rows} × ${dim} float32s of its rows`);
  const vectors = floatsOf(bytes.vectors);
  if (LINE_COLUMNS.some((c) => (columns.getChild(c)!.data[0].values as Int32Array).length < rows)) fail(name, 'row 1: line numbers are shorter than the rows');
  return { columns, vectors, nonFiniteRow: Math.floor(firstNonFinite(vectors) / dim) };
}

/** Decodes bytes that hash exactly as bytes decodeChunkBytes accepted: no need to check them twice. */
export function decodeCheckedBytes(bytes: ChunkBytes, dim: number): ChunkBatch {
  return joinVectors(arrow.tableFromIPC(bytes.columns).batches[0], floatsOf(bytes.vectors), dim);
}

/** The row fields and the vectors as one batch of every chunk field. */
export function joinVectors(columns: ChunkBatch, vectors: Float32Array, dim: number): ChunkBatch {
  const { Field, FixedSizeList, Float32, RecordBatch, Schema, Struct, makeData } = arrow;
  const type = new FixedSizeList(dim, new Field('item', new Float32(), true));
  const fields = [...columns.schema.fields, new Field(COLUMN.vector, type, false)];
  const values = makeData({ type: new Float32(), length: vectors.length, nullCount: 0, data: vectors });
  const children = [...columns.data.children, makeData({ type, length: columns.numRows, nullCount: 0, child: values })];
  return new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: columns.numRows, nullCount: 0, children }));
}

/** The little-endian float32s of a vectors half, viewed in place when they are aligned as they are when read. */
function floatsOf(bytes: Buffer): Float32Array {
  const own = BIG_ENDIAN || bytes.byteOffset % 4 !== 0 ? Buffer.from(bytes) : bytes;
  if (BIG_ENDIAN) own.swap32();
  return new Float32Array(own.buffer, own.byteOffset, own.byteLength / 4);
}

/** Index of the first value that is not a finite number, or -1: a multiply-add per value spots one without branching. */
function firstNonFinite(values: Float32Array): number {
  let sum = 0;
  for (let k = 0; k < values.length; k++) sum += values[k] * 0;
  if (sum === 0) return -1;
  for (let k = 0; k < values.length; k++) if (!Number.isFinite(values[k])) return k;
  return -1;
}

/** Offsets that stay in bounds and only ever grow, each on a character boundary of valid UTF-8. */
function utf8Problem(data: Data<Utf8>): string | null {
  const offsets = data.valueOffsets;
  const values = data.values ?? new Uint8Array(0);
  if (!offsets || offsets.length < data.length + 1) return 'string offsets are missing';
  if (offsets[0] < 0 || offsets[data.length] > values.length) return 'string offsets point outside the data';
  for (let i = 0; i < data.length; i++) {
    if (offsets[i + 1] < offsets[i]) return 'string offsets go backwards';
    // A UTF-8 continuation byte (10xxxxxx) can't start a string.
    if (offsets[i] < offsets[i + 1] && (values[offsets[i]] & 0xc0) === 0x80) return 'a string starts inside a character';
  }
  return isUtf8(values.subarray(offsets[0], offsets[data.length])) ? null : 'text is not valid UTF-8';
}

function checkSchema(name: string, schema: Schema): void {
  const names = schema.fields.map((f) => f.name);
  if (names.join(',') !== ROW_COLUMNS.join(',')) throw new ArtifactError(`artifact entry ${name} has columns ${shown(names.join(', '))}, expected ${shown(ROW_COLUMNS.join(', '))}`);
  const { DataType: T } = arrow;
  const isInt32 = (t: DataType) => T.isInt(t) && t.bitWidth === 32 && t.isSigned;
  for (const field of schema.fields) {
    const ok = LINE_COLUMNS.includes(field.name) ? isInt32 : T.isUtf8;
    if (!ok(field.type)) throw new ArtifactError(`artifact entry ${name}: column ${shown(field.name)} has type ${shown(String(field.type))}, not the one ocrag stores`);
  }
}
