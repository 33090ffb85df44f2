// Builds Arrow columns from rows picked out of other batches, copying bytes (no decoding to JavaScript strings):
// how the adapter joins chunk references with their contents into the batches callers have always read.
import type { Data as DataType, DataType as ArrowType, RecordBatch as RecordBatchType, Schema as SchemaType } from 'apache-arrow';
import arrow from '../arrow.js';

const { Float32, Utf8, RecordBatch, Struct, makeData } = arrow;

/** One row of a batch. */
export interface RowRef {
  batch: RecordBatchType;
  row: number;
}

/** The column `name` of these rows, typed as `type` (Utf8, a number, or a fixed-size list of float32). */
export function takeColumn(name: string, type: ArrowType, picks: RowRef[]): DataType {
  const columns = new Map<RecordBatchType, DataType>();
  const column = (batch: RecordBatchType) => {
    let data = columns.get(batch);
    if (!data) columns.set(batch, (data = batch.getChild(name)!.data[0]));
    return data;
  };
  if (arrow.DataType.isUtf8(type)) return takeUtf8(picks.map((p) => column(p.batch)), picks);
  if (arrow.DataType.isInt(type) || arrow.DataType.isFloat(type)) {
    const values = new (type.ArrayType as Int32ArrayConstructor)(picks.length);
    picks.forEach((p, i) => {
      const data = column(p.batch);
      values[i] = (data.values as Int32Array)[p.row];
    });
    return makeData({ type, length: picks.length, nullCount: 0, data: values } as never);
  }
  if (arrow.DataType.isFixedSizeList(type)) return takeVectors(type as InstanceType<typeof arrow.FixedSizeList>, picks.map((p) => column(p.batch)), picks);
  throw new Error(`no copy of column type ${String(type)}`);
}

function takeUtf8(datas: DataType[], picks: RowRef[]): DataType {
  const offsets = new Int32Array(picks.length + 1);
  for (let i = 0; i < picks.length; i++) {
    const data = datas[i];
    const at = picks[i].row;
    offsets[i + 1] = offsets[i] + (data.valueOffsets[at + 1] - data.valueOffsets[at]);
  }
  const bytes = new Uint8Array(offsets[picks.length]);
  for (let i = 0; i < picks.length; i++) {
    const data = datas[i];
    const at = picks[i].row;
    bytes.set((data.values as Uint8Array).subarray(data.valueOffsets[at], data.valueOffsets[at + 1]), offsets[i]);
  }
  return makeData({ type: new Utf8(), length: picks.length, nullCount: 0, valueOffsets: offsets, data: bytes });
}

function takeVectors(type: InstanceType<typeof arrow.FixedSizeList>, datas: DataType[], picks: RowRef[]): DataType {
  const dim = type.listSize;
  const floats = new Float32Array(picks.length * dim);
  for (let i = 0; i < picks.length; i++) {
    const list = datas[i];
    const child = list.children[0];
    const start = picks[i].row * dim;
    floats.set((child.values as Float32Array).subarray(start, start + dim), i * dim);
  }
  return makeData({ type, length: picks.length, nullCount: 0, child: makeData({ type: new Float32(), length: floats.length, nullCount: 0, data: floats }) });
}

/** A record batch of these columns, in the order of the schema's fields. */
export function batchOf(schema: SchemaType, children: DataType[], rows: number): RecordBatchType {
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows, nullCount: 0, children }));
}
