// How the store writes chunks: contents it lacks, then the chunk references naming them; and deletes them.
import type * as lancedb from '@lancedb/lancedb';
import { crashPoint } from '../../util/crash-point.js';
import { contentKey } from '../content-key.js';
import type { ChunkRow, ChunkToAdd } from '../contract.js';
import { blobFilters, idFilters, keyFilters } from './blob-filter.js';
import { contentsToArrow, KEY, refsToArrow, rowsToArrow, type ContentRow } from './chunk-arrow.js';
import type { ChunkTables } from './chunk-batches.js';
import { storedKeys } from './content-join.js';
import { COLUMN } from '../chunk-columns.js';

/**
 * Under the write lock: the contents of these rows not stored yet (once each), then their references, merged by
 * id when some may be stored already. A row without vector names a content it found stored; when one of those is
 * gone (gc), nothing is written and its key is returned, for the caller to embed it and add the rows again. A
 * store that was empty when the run began and that nobody else wrote since holds only what this run wrote, whose
 * caller knows which contents it stored: then nothing needs asking.
 */
export async function addToTables(tables: ChunkTables, rows: ChunkToAdd[], maybeStored: boolean, foreignWrites: boolean): Promise<string[]> {
  const keys = rows.map((r) => r.key ?? contentKey(r.symbol, r.text));
  const mayDiffer = maybeStored || foreignWrites;
  const stored = mayDiffer ? await storedKeys(tables.contents, keys) : new Set<string>();
  const fresh: ContentRow[] = [];
  const lacking = new Set<string>();
  rows.forEach((r, i) => {
    const key = keys[i];
    if (stored.has(key)) return;
    if (!r.vector || r.terms === undefined) {
      if (mayDiffer) lacking.add(key);
      return;
    }
    stored.add(key);
    fresh.push({ key, symbol: r.symbol, text: r.text, terms: r.terms, vector: r.vector });
  });
  // Rows of one write may share a content that only one of them carries.
  for (const key of lacking) if (stored.has(key)) lacking.delete(key);
  if (lacking.size) return [...lacking];
  if (fresh.length) await tables.contents.add(contentsToArrow(fresh, tables.dim));
  crashPoint('store.contents');
  const refs = refsToArrow(rows.map((r, i) => ({ id: r.id, blob: r.blob, startLine: r.startLine, endLine: r.endLine, language: r.language, key: keys[i] })));
  if (mayDiffer) await tables.refs.mergeInsert(COLUMN.id).whenNotMatchedInsertAll().execute(refs);
  else await tables.refs.add(refs);
  return [];
}

/**
 * A store of the one-table layout (until an index run upgrades it) takes whole rows, as it always did: it has no
 * contents apart, so a row left without vector (its content was written earlier in the same run) is handed back.
 */
export async function addToLegacyTable(chunks: lancedb.Table, dim: number, rows: ChunkToAdd[]): Promise<string[]> {
  const lacking = rows.filter((r) => !r.vector || r.terms === undefined).map((r) => r.key ?? contentKey(r.symbol, r.text));
  if (lacking.length) return [...new Set(lacking)];
  await chunks.mergeInsert(COLUMN.id).whenNotMatchedInsertAll().execute(rowsToArrow(rows as ChunkRow[], dim));
  return [];
}

/** Deletes the chunks and marks of these blobs, then the contents no chunk references any more; returns how many chunks went. */
export async function deleteBlobs(refs: lancedb.Table, contents: lancedb.Table | null, marks: lancedb.Table, blobs: string[]): Promise<number> {
  return deleteRefs(refs, contents, blobFilters(blobs, 500), async (filter) => void (await marks.delete(filter)));
}

/** As deleteBlobs, for chunks by id (marks stay: their blobs are still read as they were). */
export async function deleteChunks(refs: lancedb.Table, contents: lancedb.Table | null, ids: string[]): Promise<number> {
  return deleteRefs(refs, contents, idFilters(ids, 500));
}

async function deleteRefs(refs: lancedb.Table, contents: lancedb.Table | null, filters: string[], alsoWith?: (filter: string) => Promise<void>): Promise<number> {
  const before = await refs.countRows();
  for (const filter of filters) {
    await refs.delete(filter);
    await alsoWith?.(filter);
  }
  const removed = before - (await refs.countRows());
  if (removed && contents) for (const filter of keyFilters(await unreferenced(refs, contents), 500)) await contents.delete(filter);
  return removed;
}

/** Contents no reference names: one scan of each table's keys. */
async function unreferenced(refs: lancedb.Table, contents: lancedb.Table): Promise<string[]> {
  const referenced = new Set<string>();
  for await (const batch of refs.query().select([KEY])) for (const key of batch.getChild(KEY)!) referenced.add(key as string);
  const out: string[] = [];
  for await (const batch of contents.query().select([KEY])) for (const key of batch.getChild(KEY)!) if (!referenced.has(key as string)) out.push(key as string);
  return out;
}
