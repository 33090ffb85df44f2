import { isUtf8 } from 'node:buffer';
import os from 'node:os';
import { chunkerVersionOf, parseChunkerVersions } from '../chunk/version.js';
import { chunkId } from '../index/chunk-id.js';
import type { IndexIdentity } from '../store/identity.js';
import arrow, { type Data, type DataType, type Schema, type Utf8 } from '../store/arrow.js';
import { CHUNK_COLUMNS, COLUMN } from '../store/chunk-columns.js';
import type { ChunkBatch } from '../store/contract.js';
import { ArtifactError } from '../util/errors.js';
import { isObjectId } from '../git/object-id.js';
import { ROWS_PER_ENTRY, shown } from './format.js';

/** What every row of an artifact must agree with: its header's identity and its manifest's blobs. */
export interface RowExpectations extends IndexIdentity {
  /** The importing side's chunker versions: then a row of a language they chunk otherwise is refused. */
  localChunkerVersion?: string;
  /** Blobs the manifest indexes; a row of any other blob is refused. */
  blobs: Set<string>;
}

/** A chunk entry that passed every check: one Arrow batch of the store's columns, ready to be added as it is. */
export interface CheckedChunks {
  batch: ChunkBatch;
  blobs: Set<string>;
}

/** A chunk entry's two halves: its rows' columns as an Arrow IPC stream, and their vectors as raw float32s. */
export interface ChunkEntry {
  columns: Buffer;
  vectors: Buffer;
}

/** Names of the two members of a chunk entry, for messages. */
export interface ChunkEntryNames {
  columns: string;
  vectors: string;
}

const MAX_LINE = 100_000_000;
/** Every column but the vectors, which travel apart. */
const ROW_COLUMNS = CHUNK_COLUMNS.filter((c) => c !== COLUMN.vector);
const STRING_COLUMNS = [COLUMN.id, COLUMN.blob, COLUMN.language, COLUMN.symbol, COLUMN.text, COLUMN.terms];
const BIG_ENDIAN = os.endianness() === 'BE';

/** Cuts a stored batch into chunk entries of at most ROWS_PER_ENTRY rows. */
export function* encodeChunkBatch(batch: ChunkBatch, dim: number): Generator<ChunkEntry> {
  for (let start = 0; start < batch.numRows; start += ROWS_PER_ENTRY) {
    const slice = batch.slice(start, Math.min(start + ROWS_PER_ENTRY, batch.numRows));
    const ipc = arrow.tableToIPC(new arrow.Table(slice.select(ROW_COLUMNS)), 'stream');
    // A slice's values start at its first row.
    const floats = (slice.getChild(COLUMN.vector)!.data[0].children[0].values as Float32Array).subarray(0, slice.numRows * dim);
    const vectors = Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
    yield { columns: Buffer.from(ipc.buffer, ipc.byteOffset, ipc.byteLength), vectors: BIG_ENDIAN ? Buffer.from(vectors).swap32() : vectors };
  }
}

/**
 * Decodes one chunk entry and checks it down to the buffers, since the batch goes to the store as it is: one
 * batch, the store's columns and types, no nulls, string offsets in bounds on UTF-8 boundaries, exactly one
 * vector per row; and per row a known blob, a sane span, the id this ocrag derives from blob, chunker, model and
 * span, and a finite vector.
 */
export function decodeChunkEntry(names: ChunkEntryNames, entry: ChunkEntry, expect: RowExpectations): CheckedChunks {
  const name = names.columns;
  let columns: ChunkBatch;
  try {
    const table = arrow.tableFromIPC(entry.columns);
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
  if (entry.vectors.length !== rows * expect.dim * 4) fail(names.vectors, `holds ${entry.vectors.length} bytes, not the ${rows} × ${expect.dim} float32s of its rows`);
  const vectors = floatsOf(entry.vectors);
  const nonFiniteRow = Math.floor(firstNonFinite(vectors) / expect.dim);
  const blobs = new Set<string>();
  const rowProblem = rowChecker(columns, expect, blobs);
  for (let i = 0; i < rows; i++) {
    const problem = rowProblem(i);
    if (problem) fail(name, `row ${i + 1}: ${problem}`);
    if (i === nonFiniteRow) fail(names.vectors, `row ${i + 1}: vector holds a value that is not a finite number`);
  }
  return { batch: withVectors(columns, vectors, expect.dim), blobs };
}

/** Decodes an entry whose bytes hash exactly as an entry decodeChunkEntry accepted: no need to check it twice. */
export function decodeCheckedEntry(entry: ChunkEntry, dim: number): ChunkBatch {
  return withVectors(arrow.tableFromIPC(entry.columns).batches[0], floatsOf(entry.vectors), dim);
}

/** The row columns and the vectors as one batch of every stored column. */
function withVectors(columns: ChunkBatch, vectors: Float32Array, dim: number): ChunkBatch {
  const { Field, FixedSizeList, Float32, RecordBatch, Schema, Struct, makeData } = arrow;
  const type = new FixedSizeList(dim, new Field('item', new Float32(), true));
  const fields = [...columns.schema.fields, new Field(COLUMN.vector, type, false)];
  const values = makeData({ type: new Float32(), length: vectors.length, nullCount: 0, data: vectors });
  const children = [...columns.data.children, makeData({ type, length: columns.numRows, nullCount: 0, child: values })];
  return new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: columns.numRows, nullCount: 0, children }));
}

/** The little-endian float32s of a vectors member, viewed in place when they are aligned as they are when read. */
function floatsOf(bytes: Buffer): Float32Array {
  const own = BIG_ENDIAN || bytes.byteOffset % 4 !== 0 ? Buffer.from(bytes) : bytes;
  if (BIG_ENDIAN) own.swap32();
  return new Float32Array(own.buffer, own.byteOffset, own.byteLength / 4);
}

/** Checks row i, adding its blob to `blobs`. */
function rowChecker(batch: ChunkBatch, expect: RowExpectations, blobs: Set<string>): (i: number) => string | null {
  const col = (n: string) => batch.getChild(n)!.data[0];
  const ids = asciiColumn(col(COLUMN.id) as Data<Utf8>);
  const blobColumn = asciiColumn(col(COLUMN.blob) as Data<Utf8>);
  const starts = col(COLUMN.startLine).values as Int32Array;
  const ends = col(COLUMN.endLine).values as Int32Array;
  const bytes = (d: Data, i: number) => (d.valueOffsets as Int32Array)[i + 1] - (d.valueOffsets as Int32Array)[i];
  const [languages, symbols] = [col(COLUMN.language), col(COLUMN.symbol)];
  const languageOf = asciiColumn(languages as Data<Utf8>);
  const versionOf = languageVersions(expect);
  if (starts.length < batch.numRows || ends.length < batch.numRows) return () => 'line numbers are shorter than the rows';
  return (i) => {
    const blob = blobColumn(i);
    if (!isObjectId(blob)) return `invalid blob id ${shown(blob)}`;
    if (!expect.blobs.has(blob)) return `blob ${blob} is not in the artifact's manifest`;
    blobs.add(blob);
    const start = starts[i];
    const end = ends[i];
    if (start < 1 || end < start || end > MAX_LINE) return `invalid line span ${start}-${end}`;
    const id = ids(i);
    const version = versionOf(bytes(languages, i) > 64 ? '' : languageOf(i));
    if (id !== chunkId(blob, version, expect.modelId, start, end)) return `chunk id ${shown(id)} does not match its blob, span, model and chunker`;
    if (bytes(languages, i) > 64 || bytes(symbols, i) > 64 * 1024) return 'language or symbol is implausibly long';
    return null;
  };
}

/**
 * The chunker version of a language's rows, as the header says. With the importing side's versions, a language
 * they chunk otherwise refuses the artifact: its chunks are not the ones this ocrag would make.
 */
function languageVersions(expect: RowExpectations): (language: string) => string {
  const artifact = parseChunkerVersions(expect.chunkerVersion);
  const here = expect.localChunkerVersion === undefined ? null : parseChunkerVersions(expect.localChunkerVersion);
  const known = new Map<string, string>();
  return (language) => {
    let version = known.get(language);
    if (version !== undefined) return version;
    version = chunkerVersionOf(language, artifact);
    const local = here && chunkerVersionOf(language, here);
    if (local !== null && local !== version) {
      throw new ArtifactError(`artifact holds ${shown(language)} chunks of chunker version ${shown(version)} but this ocrag chunks them with version ${local}: export it again with this ocrag version`);
    }
    known.set(language, version);
    return version;
  };
}

/**
 * Strings of a column that must be ASCII (ids, blob ids), read as latin1: far cheaper than UTF-8 decoding, and a
 * byte outside ASCII still fails the comparison it is read for.
 */
function asciiColumn(data: Data<Utf8>): (i: number) => string {
  const offsets = data.valueOffsets as Int32Array;
  const values = data.values ?? new Uint8Array(0);
  const text = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  return (i) => text.toString('latin1', offsets[i], offsets[i + 1]);
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
  const expected: Record<string, (t: DataType) => boolean> = { start_line: isInt32, end_line: isInt32 };
  for (const field of schema.fields) {
    const ok = expected[field.name] ?? T.isUtf8;
    if (!ok(field.type)) throw new ArtifactError(`artifact entry ${name}: column ${shown(field.name)} has type ${shown(String(field.type))}, not the one ocrag stores`);
  }
}
