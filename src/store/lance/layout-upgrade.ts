// The tables' layout: chunk references and contents apart (this ocrag's), or one table of chunks with everything
// (stores made before), and the one-time upgrade from the second to the first.
import fs from 'node:fs';
import path from 'node:path';
import type * as lancedb from '@lancedb/lancedb';
import type { RecordBatch as RecordBatchType } from 'apache-arrow';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { crashPoint } from '../../util/crash-point.js';
import { CHUNK_COLUMNS } from '../chunk-columns.js';
import { readFields } from '../chunk-batch.js';
import { contentKey } from '../content-key.js';
import { isLargeStore } from '../large-store.js';
import type { StoreLocation } from '../layout.js';
import { append, rowsIn } from './chunk-batches.js';
import { contentSchema, refSchema } from './chunk-arrow.js';
import type { RowRef } from './arrow-take.js';
import { ensureSearchIndexes } from './search-indexes.js';

export const REFS = 'chunk_refs';
export const CONTENTS = 'contents';
/** The one table of the first layout: every chunk with its text and vector. */
export const LEGACY_CHUNKS = 'chunks';

/**
 * Written once the tables of this layout hold everything: from then on a table of the first layout beside them is
 * a leftover of an upgrade killed after its switch. Before it, that table is the store, and tables of this layout
 * beside it are what a killed upgrade began.
 */
const LAYOUT_FILE = 'layout.json';

/** Rows written per commit while upgrading. */
const ROWS_PER_WRITE = 20_000;

export function hasSplitLayout(dir: string): boolean {
  return fs.existsSync(path.join(dir, LAYOUT_FILE));
}

export function markSplitLayout(dir: string): void {
  if (!hasSplitLayout(dir)) writeFileAtomic(path.join(dir, LAYOUT_FILE), JSON.stringify({ layout: 'chunk refs + contents', at: new Date().toISOString() }) + '\n');
}

/**
 * Copies the chunks of a first-layout table into references and contents (a content once, however many chunks
 * have it; vectors as stored, nothing re-embedded), in the table's order, then builds the search indexes a large
 * store is searched with, and switches. The old table stays the store until the switch, so a killed upgrade
 * leaves it whole, and the next one starts over.
 */
export async function copyToSplitLayout(db: lancedb.Connection, legacy: lancedb.Table, location: StoreLocation, dim: number, onNotice?: (message: string) => void): Promise<{ refs: lancedb.Table; contents: lancedb.Table }> {
  const names = new Set(await db.tableNames());
  for (const name of [REFS, CONTENTS]) if (names.has(name)) await db.dropTable(name);
  const refs = await db.createEmptyTable(REFS, refSchema(), { existOk: false });
  const contents = await db.createEmptyTable(CONTENTS, contentSchema(dim), { existOk: false });
  const seen = new Set<string>();
  let pending: { refs: RowRef[]; refKeys: string[]; contents: RowRef[]; contentKeys: string[] } = { refs: [], refKeys: [], contents: [], contentKeys: [] };
  const flush = async () => {
    if (pending.contents.length) await append(contents, rowsIn(contentSchema(dim), pending.contents, pending.contentKeys));
    if (pending.refs.length) await append(refs, rowsIn(refSchema(), pending.refs, pending.refKeys));
    pending = { refs: [], refKeys: [], contents: [], contentKeys: [] };
  };
  for await (const raw of legacy.query().select(CHUNK_COLUMNS)) {
    const batch = raw as unknown as RecordBatchType;
    // Read as written: Arrow's accessor drops a text's leading U+FEFF, and the key would not be its text's.
    const { symbol, text } = readFields(batch, ['symbol', 'text']);
    for (let row = 0; row < batch.numRows; row++) {
      const key = contentKey(symbol(row), text(row));
      pending.refs.push({ batch, row });
      pending.refKeys.push(key);
      if (seen.has(key)) continue;
      seen.add(key);
      pending.contents.push({ batch, row });
      pending.contentKeys.push(key);
    }
    if (pending.refs.length >= ROWS_PER_WRITE) await flush();
  }
  await flush();
  crashPoint('store.upgrade-copied');
  for (const table of [refs, contents]) await table.optimize({ cleanupOlderThan: new Date(), deleteUnverified: false });
  // A store marked large keeps its indexes: the mark says a view needed them, so no view is counted again.
  if (isLargeStore(location)) await ensureSearchIndexes({ contents, refs, dir: location.tables }, await refs.countRows(), location, async (limit) => limit, onNotice);
  markSplitLayout(location.tables);
  crashPoint('store.upgrade-switched');
  await db.dropTable(LEGACY_CHUNKS);
  return { refs, contents };
}
