import { isUtf8 } from 'node:buffer';
import type { Data, DataType, RecordBatch, Schema, Utf8 } from 'apache-arrow';
import { chunkId } from '../index/chunk-id.js';
import arrow from '../store/arrow.js';
import { CHUNK_COLUMNS } from '../store/chunk-store.js';
import { ArtifactError, isObjectId, ROWS_PER_ENTRY, shown } from './format.js';

/** What every row of an artifact must agree with: its header's identity and its manifest's blobs. */
export interface RowExpectations {
  modelId: string;
  dim: number;
  chunkerVersion: string;
  /** Blobs the manifest indexes; a row of any other blob is refused. */
  blobs: Set<string>;
}

/** A chunk entry that passed every check: one Arrow batch in the store's schema, ready to be added as it is. */
export interface CheckedChunks {
  batch: RecordBatch;
  blobs: Set<string>;
}

const MAX_LINE = 100_000_000;
const STRING_COLUMNS = ['id', 'blob', 'language', 'symbol', 'text', 'terms'];

/** Cuts a stored batch into Arrow IPC streams of at most ROWS_PER_ENTRY rows (vectors stay raw float32). */
export function* encodeChunkBatch(batch: RecordBatch): Generator<Buffer> {
  for (let start = 0; start < batch.numRows; start += ROWS_PER_ENTRY) {
    const slice = batch.slice(start, Math.min(start + ROWS_PER_ENTRY, batch.numRows));
    const ipc = arrow.tableToIPC(new arrow.Table(slice), 'stream');
    yield Buffer.from(ipc.buffer, ipc.byteOffset, ipc.byteLength);
  }
}

/**
 * Decodes one chunk entry and checks it down to the buffers, since the batch goes to the store as it is: one
 * batch, the store's columns and types, no nulls, string offsets in bounds on UTF-8 boundaries; and per row a
 * known blob, a sane span, the id this ocrag derives from blob, chunker, model and span, and finite vectors.
 */
export function decodeChunkEntry(name: string, body: Buffer, expect: RowExpectations): CheckedChunks {
  let batches: RecordBatch[];
  try {
    const table = arrow.tableFromIPC(body);
    checkSchema(name, table.schema, expect.dim);
    batches = table.batches;
  } catch (e) {
    if (e instanceof ArtifactError) throw e;
    throw new ArtifactError(`artifact entry ${name} is not a valid Arrow stream (${shown(String((e as Error).message))})`);
  }
  if (batches.length !== 1 || batches[0].numRows === 0) throw new ArtifactError(`artifact entry ${name} must hold exactly one non-empty batch`);
  const batch = batches[0];
  const fail = (what: string): never => {
    throw new ArtifactError(`artifact entry ${name}: ${what}`);
  };
  for (const column of CHUNK_COLUMNS) {
    const data = batch.getChild(column)!.data;
    if (data.length !== 1 || data[0].offset !== 0 || data[0].nullCount !== 0 || data[0].length !== batch.numRows) fail(`column ${column} is not one plain, complete column`);
  }
  for (const column of STRING_COLUMNS) {
    const problem = utf8Problem(batch.getChild(column)!.data[0] as Data<Utf8>);
    if (problem) fail(`column ${column}: ${problem}`);
  }
  const blobs = new Set<string>();
  const rowProblem = rowChecker(batch, expect, blobs);
  for (let i = 0; i < batch.numRows; i++) {
    const problem = rowProblem(i);
    if (problem) fail(`row ${i + 1}: ${problem}`);
  }
  return { batch, blobs };
}

/** Decodes an entry whose bytes hash exactly as an entry decodeChunkEntry accepted: no need to check it twice. */
export function decodeCheckedEntry(body: Buffer): RecordBatch {
  return arrow.tableFromIPC(body).batches[0];
}

/** Checks row i, adding its blob to `blobs`. */
function rowChecker(batch: RecordBatch, expect: RowExpectations, blobs: Set<string>): (i: number) => string | null {
  const col = (n: string) => batch.getChild(n)!;
  const [ids, blobColumn, languages, symbols] = ['id', 'blob', 'language', 'symbol'].map(col);
  const starts = col('start_line').data[0].values as Int32Array;
  const ends = col('end_line').data[0].values as Int32Array;
  const vectorData = col('vector').data[0];
  const values = vectorData.children[0].values as Float32Array;
  const { dim } = expect;
  if (vectorData.children[0].offset !== 0 || values.length < batch.numRows * dim) return () => 'vectors are shorter than the rows';
  if (starts.length < batch.numRows || ends.length < batch.numRows) return () => 'line numbers are shorter than the rows';
  const bytes = (d: Data, i: number) => (d.valueOffsets as Int32Array)[i + 1] - (d.valueOffsets as Int32Array)[i];
  const nonFiniteRow = Math.floor(firstNonFinite(values, batch.numRows * dim) / dim);
  return (i) => {
    const blob = blobColumn.get(i) as string;
    if (!isObjectId(blob)) return `invalid blob id ${shown(blob)}`;
    if (!expect.blobs.has(blob)) return `blob ${blob} is not in the artifact's manifest`;
    blobs.add(blob);
    const start = starts[i];
    const end = ends[i];
    if (start < 1 || end < start || end > MAX_LINE) return `invalid line span ${start}-${end}`;
    const id = ids.get(i) as string;
    if (id !== chunkId(blob, expect.chunkerVersion, expect.modelId, start, end)) return `chunk id ${shown(id)} does not match its blob, span, model and chunker`;
    if (bytes(languages.data[0], i) > 64 || bytes(symbols.data[0], i) > 64 * 1024) return 'language or symbol is implausibly long';
    if (i === nonFiniteRow) return 'vector holds a value that is not a finite number';
    return null;
  };
}

/** Index of the first value that is not a finite number, or -1: a multiply-add per value spots one without branching. */
function firstNonFinite(values: Float32Array, length: number): number {
  let sum = 0;
  for (let k = 0; k < length; k++) sum += values[k] * 0;
  if (sum === 0) return -1;
  for (let k = 0; k < length; k++) if (!Number.isFinite(values[k])) return k;
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

function checkSchema(name: string, schema: Schema, dim: number): void {
  const names = schema.fields.map((f) => f.name);
  if (names.join(',') !== CHUNK_COLUMNS.join(',')) throw new ArtifactError(`artifact entry ${name} has columns ${shown(names.join(', '))}, expected ${shown(CHUNK_COLUMNS.join(', '))}`);
  const { DataType: T } = arrow;
  const expected: Record<string, (t: DataType) => boolean> = {
    start_line: (t) => T.isInt(t) && t.bitWidth === 32 && t.isSigned,
    end_line: (t) => T.isInt(t) && t.bitWidth === 32 && t.isSigned,
    vector: (t) => T.isFixedSizeList(t) && t.listSize === dim && T.isFloat(t.children[0].type) && t.children[0].type.precision === arrow.Precision.SINGLE,
  };
  for (const field of schema.fields) {
    const ok = expected[field.name] ?? T.isUtf8;
    if (!ok(field.type)) throw new ArtifactError(`artifact entry ${name}: column ${shown(field.name)} has type ${shown(String(field.type))}, not the one ocrag stores (vectors must be ${dim} float32s)`);
  }
}
