// Test helper: turns a repository's store into the layout ocrag kept before contents were stored apart (one
// `chunks` table of whole rows, beside `blob_marks`; store.json of format 1), the rows as they are.
import fs from 'node:fs';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { CHUNK_FIELDS } from '../../src/store/chunk-columns.js';
import type { ChunkRow } from '../../src/store/contract.js';
import { rowsToArrow } from '../../src/store/lance/chunk-arrow.js';
import { readFields } from '../../src/store/chunk-batch.js';
import { indexLayout } from '../../src/store/layout.js';
import { readMeta, writeMeta } from '../../src/store/meta.js';
import { openStore } from '../../src/store/open-store.js';

export async function toLegacyLayout(repo: string, dim = 512): Promise<number> {
  const layout = indexLayout({ root: repo, commonDir: path.join(repo, '.git') });
  const store = await openStore(layout, dim, { create: false });
  const rows: ChunkRow[] = [];
  try {
    for await (const batch of store.chunkColumns(null, CHUNK_FIELDS)) {
      // Read as written (Arrow's own accessor drops a text's leading U+FEFF).
      const f = readFields(batch, CHUNK_FIELDS);
      for (let i = 0; i < batch.numRows; i++) {
        rows.push({ id: f.id(i), blob: f.blob(i), startLine: f.startLine(i), endLine: f.endLine(i), language: f.language(i), symbol: f.symbol(i), text: f.text(i), terms: f.terms(i), vector: Float32Array.from(f.vector(i)) });
      }
    }
  } finally {
    store.close();
  }
  const db = await lancedb.connect(layout.tables);
  try {
    (await db.createTable('chunks', rowsToArrow(rows, dim))).close();
    for (const table of ['chunk_refs', 'contents']) await db.dropTable(table);
  } finally {
    db.close();
  }
  fs.rmSync(path.join(layout.tables, 'layout.json'));
  fs.rmSync(layout.resident, { recursive: true, force: true });
  writeMeta(layout.meta, { ...readMeta(layout.meta)!, format: 1 });
  return rows.length;
}

/** The tables in the store's folder (LanceDB keeps each as `<name>.lance`). */
export function tablesOf(repo: string): string[] {
  const dir = indexLayout({ root: repo, commonDir: path.join(repo, '.git') }).tables;
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.lance'))
    .map((f) => f.slice(0, -'.lance'.length))
    .sort();
}
