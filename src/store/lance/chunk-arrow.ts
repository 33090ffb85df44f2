import type { Data as DataType, Float32 as Float32Type, FixedSizeList as FixedSizeListType, Schema as SchemaType, Table as TableType } from 'apache-arrow';
import arrow from '../arrow.js';
import type { ChunkRow } from '../contract.js';
import { COLUMN, columnsOf, CONTENT_FIELDS, REF_FIELDS } from '../chunk-columns.js';

const { Field, FixedSizeList, Float32, Int32, Schema, Utf8, makeData, Table: ArrowTable, RecordBatch, Struct } = arrow;

/** The column both tables have: a chunk reference names its content by it. */
export const KEY = COLUMN.contentKey;
/** Columns of the `chunk_refs` table besides the key: what a chunk is, apart from its content. */
export const REF_COLUMNS: string[] = columnsOf(REF_FIELDS);
/** Columns of the `contents` table besides the key: what is stored once for every chunk that has it. */
export const CONTENT_COLUMNS: string[] = columnsOf(CONTENT_FIELDS);

/** Every column of a chunk, as callers read them (and as the one table of the first layout held them). */
export function chunkSchema(dim: number): SchemaType {
  return new Schema([
    new Field(COLUMN.id, new Utf8(), false),
    new Field(COLUMN.blob, new Utf8(), false),
    new Field(COLUMN.startLine, new Int32(), false),
    new Field(COLUMN.endLine, new Int32(), false),
    new Field(COLUMN.language, new Utf8(), false),
    new Field(COLUMN.symbol, new Utf8(), false),
    new Field(COLUMN.text, new Utf8(), false),
    new Field(COLUMN.terms, new Utf8(), false),
    new Field(COLUMN.vector, vectorType(dim), false),
  ]);
}

export function refSchema(): SchemaType {
  return new Schema([...chunkSchema(1).fields.filter((f) => REF_COLUMNS.includes(f.name)), new Field(KEY, new Utf8(), false)]);
}

export function contentSchema(dim: number): SchemaType {
  return new Schema([new Field(KEY, new Utf8(), false), ...chunkSchema(dim).fields.filter((f) => CONTENT_COLUMNS.includes(f.name))]);
}

/** The fields of these columns, in this order, typed as in chunkSchema (or as the key). */
export function fieldsOf(columns: string[], dim: number): SchemaType {
  const all = new Map([...chunkSchema(dim).fields, new Field(KEY, new Utf8(), false)].map((f) => [f.name, f]));
  return new Schema(columns.map((c) => all.get(c)!));
}

function vectorType(dim: number): FixedSizeListType<Float32Type> {
  return new FixedSizeList(dim, new Field('item', new Float32(), true));
}

export const markSchema = new Schema([new Field(COLUMN.blob, new Utf8(), false), new Field(COLUMN.reason, new Utf8(), false)]);

/** A stored content: what chunks of the same breadcrumb and text share. */
export interface ContentRow {
  key: string;
  symbol: string;
  text: string;
  terms: string;
  vector: Float32Array;
}

/** A chunk reference: a chunk's place and the key of its content. */
export interface RefRow {
  id: string;
  blob: string;
  startLine: number;
  endLine: number;
  language: string;
  key: string;
}

const strings = <T>(rows: T[], f: (r: T) => string): DataType => utf8Column(rows.map(f));

/**
 * These strings as a UTF-8 column written straight into one buffer: Arrow's builder encoded each string apart and
 * grew its buffers as it went (0.2 s of a tokio index's writes). The same bytes: both write a lone surrogate as U+FFFD.
 */
export function utf8Column(values: string[]): DataType {
  const valueOffsets = new Int32Array(values.length + 1);
  let bytes = 0;
  values.forEach((v, i) => (valueOffsets[i + 1] = bytes += Buffer.byteLength(v, 'utf8')));
  const data = new Uint8Array(bytes);
  const writer = Buffer.from(data.buffer, data.byteOffset, bytes);
  values.forEach((v, i) => writer.write(v, valueOffsets[i]!, 'utf8'));
  return makeData({ type: new Utf8(), length: values.length, nullCount: 0, valueOffsets, data });
}
const ints = <T>(rows: T[], f: (r: T) => number) => makeData({ type: new Int32(), length: rows.length, nullCount: 0, data: Int32Array.from(rows, f) });

function vectors(rows: { vector: Float32Array }[], dim: number): DataType {
  const flat = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => flat.set(r.vector, i * dim));
  return makeData({ type: vectorType(dim), length: rows.length, nullCount: 0, child: makeData({ type: new Float32(), length: flat.length, nullCount: 0, data: flat }) });
}

function tableOf(schema: SchemaType, rows: number, children: DataType[]): TableType {
  return new ArrowTable([new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows, nullCount: 0, children }))]);
}

export function refsToArrow(rows: RefRow[]): TableType {
  const children = [strings(rows, (r) => r.id), strings(rows, (r) => r.blob), ints(rows, (r) => r.startLine), ints(rows, (r) => r.endLine), strings(rows, (r) => r.language), strings(rows, (r) => r.key)];
  return tableOf(refSchema(), rows.length, children);
}

export function contentsToArrow(rows: ContentRow[], dim: number): TableType {
  const children = [strings(rows, (r) => r.key), strings(rows, (r) => r.symbol), strings(rows, (r) => r.text), strings(rows, (r) => r.terms), vectors(rows, dim)];
  return tableOf(contentSchema(dim), rows.length, children);
}

/** Rows in the one-table layout of old stores (whose search-time writers still add to it until it is upgraded). */
export function rowsToArrow(rows: ChunkRow[], dim: number): TableType {
  const children = [
    strings(rows, (r) => r.id),
    strings(rows, (r) => r.blob),
    ints(rows, (r) => r.startLine),
    ints(rows, (r) => r.endLine),
    strings(rows, (r) => r.language),
    strings(rows, (r) => r.symbol),
    strings(rows, (r) => r.text),
    strings(rows, (r) => r.terms),
    vectors(rows, dim),
  ];
  return tableOf(chunkSchema(dim), rows.length, children);
}

