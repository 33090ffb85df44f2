// Chunks as callers read them, joined inside the adapter: a chunk reference's columns, then its content's.
import type * as lancedb from '@lancedb/lancedb';
import type { RecordBatch as RecordBatchType } from 'apache-arrow';
import { StoreDamageError } from '../../util/errors.js';
import { checkStoredBatch } from '../batch-integrity.js';
import { batchOf, takeColumn, type RowRef } from './arrow-take.js';
import { keyFilters } from './blob-filter.js';
import { isRemoteTables } from './connect.js';
import { COLUMN } from '../chunk-columns.js';
import { CONTENT_COLUMNS, fieldsOf, KEY } from './chunk-arrow.js';

/** Content keys to one `IN (…)` look-up: a look-up scans the key column once, so fewer and longer is cheaper. */
const KEYS_PER_LOOKUP = 2000;
/** Look-ups of contents under way at once while joining (see joinContents). */
const LOOKUPS_AT_ONCE = 4;
/** A join wanting at least 1/SCAN_WHEN_WANTING of the contents reads them all in one scan instead of looking them up. */
const SCAN_WHEN_WANTING = 2;

/** The `columns` of the contents of these keys, each key's row, checked (batch-integrity.ts; `where` names the tables in a damage report). */
export async function contentsOf(contents: lancedb.Table, keys: Iterable<string>, columns: string[], where: string): Promise<Map<string, RowRef>> {
  const found = new Map<string, RowRef>();
  for (const filter of keyFilters(keys, KEYS_PER_LOOKUP)) {
    for await (const batch of contents.query().where(filter).select([KEY, ...columns])) {
      const b = batch as unknown as RecordBatchType;
      checkStoredBatch(b, where);
      const col = b.getChild(KEY)!;
      for (let row = 0; row < b.numRows; row++) found.set(col.get(row) as string, { batch: b, row });
    }
  }
  return found;
}

/** The `columns` of these keys' contents, by one scan of the table, checked. */
async function scanContents(contents: lancedb.Table, keys: Set<string>, columns: string[], where: string): Promise<Map<string, RowRef>> {
  const found = new Map<string, RowRef>();
  for await (const batch of contents.query().select([KEY, ...columns])) {
    const b = batch as unknown as RecordBatchType;
    checkStoredBatch(b, where);
    const col = b.getChild(KEY)!;
    for (let row = 0; row < b.numRows; row++) {
      const key = col.get(row) as string;
      if (keys.has(key)) found.set(key, { batch: b, row });
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
  const lookUp = (keys: Set<string>) => contentsOf(contents, keys, fromContent, tables);
  const join = async (b: RecordBatchType, lookUpKeys = lookUp): Promise<RecordBatchType | null> => {
    const blobs = wanted && b.getChild(COLUMN.blob)!;
    const keys = b.getChild(KEY)!;
    const refRows: RowRef[] = [];
    for (let row = 0; row < b.numRows; row++) if (!blobs || wanted!.has(blobs.get(row) as string)) refRows.push({ batch: b, row });
    if (refRows.length === 0) return null;
    const rowKeys = refRows.map((r) => keys.get(r.row) as string);
    const found = fromContent.length ? await lookUpKeys(new Set(rowKeys)) : new Map<string, RowRef>();
    const contentRows = fromContent.length ? rowKeys.map((k) => found.get(k) ?? missingContent(tables, k)) : [];
    const children = schema.fields.map((f) => takeColumn(f.name, f.type, fromContent.includes(f.name) ? contentRows : refRows));
    return batchOf(schema, children, refRows.length);
  };
  if (wanted && fromContent.length && (isRemoteTables(tables) || !fromContent.includes(COLUMN.vector))) {
    // Most of a remote's contents wanted (a fresh clone copying its tree): one scan of them beats a look-up per batch,
    // each of which reads the whole key column again (a fresh clone of tokio: 14 look-ups, 45 MB fetched from a
    // 36 MB store). The references are few bytes a row, so they are held until the contents are read. Locally too
    // when no vector is read, so the scan holds little (importing tokio's artifact again reads the search words of
    // all its rows: 8 look-ups of 2,000 keys took ~0.4 s, one scan of the column ~30 ms); vectors stream batch by batch.
    const held: RecordBatchType[] = [];
    const keys = new Set<string>();
    for await (const batch of refs) {
      const b = batch as RecordBatchType;
      const [blobs, keyCol] = [b.getChild(COLUMN.blob)!, b.getChild(KEY)!];
      for (let row = 0; row < b.numRows; row++) if (wanted.has(blobs.get(row) as string)) keys.add(keyCol.get(row) as string);
      held.push(b);
    }
    const scanned = keys.size * SCAN_WHEN_WANTING >= (await contents.countRows()) ? await scanContents(contents, keys, fromContent, tables) : null;
    const lookUpHeld = scanned ? async () => scanned : lookUp;
    for (const b of held) {
      const done = await join(b, lookUpHeld);
      if (done) yield done;
    }
    return;
  }
  // Each batch's look-up waits on its own round trips (object storage: many ranged GETs), so a few run at once,
  // yielded in order. Measured on tokio from s3rver on 127.0.0.1 (load 7): within noise (2.45 s against 2.52 s for
  // the whole index run); a store with real network latency per request is where it counts. Local reads too.
  const inFlight: Promise<RecordBatchType | null>[] = [];
  const next = async () => inFlight.shift()!;
  for await (const batch of refs) {
    const joined = join(batch as RecordBatchType);
    // Marked handled now: a later batch failing while an earlier one is awaited is thrown in its turn.
    joined.catch(() => undefined);
    inFlight.push(joined);
    if (inFlight.length < LOOKUPS_AT_ONCE) continue;
    const done = await (await next());
    if (done) yield done;
  }
  while (inFlight.length) {
    const done = await (await next());
    if (done) yield done;
  }
}

/** References are added after their contents and deleted before them: a missing one is damage (or a gc just now). */
function missingContent(tables: string, key: string): never {
  throw new StoreDamageError(tables, `content ${key} of a chunk is missing`);
}

/** The reference columns a read of `columns` needs, with the key to join by (and the blob, to keep wanted ones). */
export function refColumnsFor(columns: string[]): string[] {
  return [...new Set([...columns.filter((c) => !CONTENT_COLUMNS.includes(c)), COLUMN.blob, KEY])];
}
