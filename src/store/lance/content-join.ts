// Chunks as callers read them, joined inside the adapter: a chunk reference's columns, then its content's.
import type * as lancedb from '@lancedb/lancedb';
import type { RecordBatch as RecordBatchType } from 'apache-arrow';
import { StoreDamageError } from '../../util/errors.js';
import { batchOf, takeColumn, type RowRef } from './arrow-take.js';
import { keyFilters } from './blob-filter.js';
import { CONTENT_COLUMNS, fieldsOf, KEY } from './chunk-arrow.js';

/** Content keys to one `IN (…)` look-up: a look-up scans the key column once, so fewer and longer is cheaper. */
const KEYS_PER_LOOKUP = 2000;

/** The `columns` of the contents of these keys, each key's row. */
export async function contentsOf(contents: lancedb.Table, keys: Iterable<string>, columns: string[]): Promise<Map<string, RowRef>> {
  const found = new Map<string, RowRef>();
  for (const filter of keyFilters(keys, KEYS_PER_LOOKUP)) {
    for await (const batch of contents.query().where(filter).select([KEY, ...columns])) {
      const b = batch as unknown as RecordBatchType;
      const col = b.getChild(KEY)!;
      for (let row = 0; row < b.numRows; row++) found.set(col.get(row) as string, { batch: b, row });
    }
  }
  return found;
}

/** Which of these keys the contents table has. */
export async function storedKeys(contents: lancedb.Table, keys: Iterable<string>): Promise<Set<string>> {
  const stored = new Set<string>();
  for (const filter of keyFilters(new Set(keys), KEYS_PER_LOOKUP)) {
    for await (const batch of contents.query().where(filter).select([KEY])) {
      const col = batch.getChild(KEY)!;
      for (let i = 0; i < batch.numRows; i++) stored.add(col.get(i) as string);
    }
  }
  return stored;
}

/**
 * The `columns` of chunks, one batch per batch of references (which must carry the key and, with `wanted`, the
 * blob), in the references' order: the order chunks were added, as the one-table layout gave them. With
 * `wanted`, only those blobs' chunks.
 */
export async function* joinContents(refs: AsyncIterable<unknown>, contents: lancedb.Table, columns: string[], dim: number, tables: string, wanted?: Set<string>): AsyncGenerator<RecordBatchType> {
  const schema = fieldsOf(columns, dim);
  const fromContent = columns.filter((c) => CONTENT_COLUMNS.includes(c));
  for await (const batch of refs) {
    const b = batch as RecordBatchType;
    const blobs = wanted && b.getChild('blob')!;
    const keys = b.getChild(KEY)!;
    const refRows: RowRef[] = [];
    for (let row = 0; row < b.numRows; row++) if (!blobs || wanted!.has(blobs.get(row) as string)) refRows.push({ batch: b, row });
    if (refRows.length === 0) continue;
    const rowKeys = refRows.map((r) => keys.get(r.row) as string);
    const found = fromContent.length ? await contentsOf(contents, new Set(rowKeys), fromContent) : new Map<string, RowRef>();
    const contentRows = fromContent.length ? rowKeys.map((k) => found.get(k) ?? missingContent(tables, k)) : [];
    const children = schema.fields.map((f) => takeColumn(f.name, f.type, fromContent.includes(f.name) ? contentRows : refRows));
    yield batchOf(schema, children, refRows.length);
  }
}

/** References are added after their contents and deleted before them: a missing one is damage (or a gc just now). */
function missingContent(tables: string, key: string): never {
  throw new StoreDamageError(tables, `content ${key} of a chunk is missing`);
}

/** The reference columns a read of `columns` needs, with the key to join by (and the blob, to keep wanted ones). */
export function refColumnsFor(columns: string[]): string[] {
  return [...new Set([...columns.filter((c) => !CONTENT_COLUMNS.includes(c)), 'blob', KEY])];
}
