// A small store holds what search reads and nothing else: no LanceDB full-text index (search ranks with its own
// BM25 in memory), and one left by an older indexer goes at the next compaction without changing any answer.
// (Large stores are searched through that index: test/search/large-store.test.ts.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as lancedb from '@lancedb/lancedb';
import { ensureTextIndex } from '../../src/store/lance/search-indexes.js';
import { makeFixtureRepo, runJson } from '../helpers.js';

const indexFiles = (repo: string) => {
  const dir = path.join(repo, '.ocrag', 'lance', 'contents.lance', '_indices');
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0;
};

test('index runs build no full-text index, and gc drops an old one with the same answers', async () => {
  const repo = makeFixtureRepo();
  await runJson(['index'], repo);
  assert.equal(indexFiles(repo), 0);
  const query = ['search', 'parse command line arguments', '-k', '5', '--no-update'];
  const before = await runJson<unknown[]>(query, repo);

  const db = await lancedb.connect(path.join(repo, '.ocrag', 'lance'));
  const chunks = await db.openTable('contents');
  try {
    await ensureTextIndex(chunks);
  } finally {
    chunks.close();
    db.close();
  }
  assert.ok(indexFiles(repo) > 0, 'a store as older indexers left it');
  await runJson(['gc'], repo);
  assert.equal(indexFiles(repo), 0);
  assert.deepEqual(await runJson<unknown[]>(query, repo), before);
});
