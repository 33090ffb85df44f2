import type { Data as DataType, Float32 as Float32Type, FixedSizeList as FixedSizeListType, RecordBatch as RecordBatchType, Schema as SchemaType, Table as TableType } from 'apache-arrow';
import arrow from '../arrow.js';
import type { ChunkRow } from '../contract.js';

const { Field, FixedSizeList, Float32, Int32, Schema, Utf8, makeData, Table: ArrowTable, RecordBatch, Struct, vectorFromArray } = arrow;

export function chunkSchema(dim: number): SchemaType {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('blob', new Utf8(), false),
    new Field('start_line', new Int32(), false),
    new Field('end_line', new Int32(), false),
    new Field('language', new Utf8(), false),
    new Field('symbol', new Utf8(), false),
    new Field('text', new Utf8(), false),
    new Field('terms', new Utf8(), false),
    new Field('vector', new FixedSizeList(dim, new Field('item', new Float32(), true)), false),
  ]);
}

export const markSchema = new Schema([new Field('blob', new Utf8(), false), new Field('reason', new Utf8(), false)]);

/** Builds the Arrow batch column by column from typed arrays (row objects would be ~10× slower). */
export function rowsToArrow(rows: ChunkRow[], dim: number): TableType {
  const schema = chunkSchema(dim);
  const vectors = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => vectors.set(r.vector, i * dim));
  const strings = (f: (r: ChunkRow) => string) => vectorFromArray(rows.map(f), new Utf8()).data[0];
  const ints = (f: (r: ChunkRow) => number) => makeData({ type: new Int32(), length: rows.length, nullCount: 0, data: Int32Array.from(rows, f) });
  const vectorType = schema.fields[8].type as FixedSizeListType<Float32Type>;
  const children = [
    strings((r) => r.id),
    strings((r) => r.blob),
    ints((r) => r.startLine),
    ints((r) => r.endLine),
    strings((r) => r.language),
    strings((r) => r.symbol),
    strings((r) => r.text),
    strings((r) => r.terms),
    makeData({ type: vectorType, length: rows.length, nullCount: 0, child: makeData({ type: new Float32(), length: vectors.length, nullCount: 0, data: vectors }) }),
  ];
  const struct = makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children });
  return new ArrowTable([new RecordBatch(schema, struct)]);
}

/** The same column data under the store's own schema (names, nullability, vector child field) so LanceDB takes it. */
export function batchesAsStored(batches: RecordBatchType[], dim: number): TableType {
  const schema = chunkSchema(dim);
  const vectorType = schema.fields[8].type as FixedSizeListType<Float32Type>;
  return new ArrowTable(
    batches.map((b) => {
      const children = schema.fields.map((f) => b.getChild(f.name)!.data[0]);
      children[8] = makeData({ type: vectorType, length: b.numRows, nullCount: 0, child: children[8].children[0] as DataType<Float32Type> });
      return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: b.numRows, nullCount: 0, children }));
    }),
  );
}

export function rowOf(batch: RecordBatchType, i: number): ChunkRow {
  const get = (column: string) => batch.getChild(column)!.get(i);
  return {
    id: get('id') as string,
    blob: get('blob') as string,
    startLine: get('start_line') as number,
    endLine: get('end_line') as number,
    language: get('language') as string,
    symbol: get('symbol') as string,
    text: get('text') as string,
    terms: get('terms') as string,
    vector: Float32Array.from((get('vector') as { toArray(): Float32Array }).toArray()),
  };
}
