// The store holds what search reads and nothing else: no LanceDB full-text index (search ranks with its own
// BM25), and one left by an older indexer goes at the next compaction without changing any answer.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ChunkStore } from '../../src/store/chunk-store.js';
import { makeFixtureRepo, runJson } from '../helpers.js';

const indexFiles = (repo: string) => {
  const dir = path.join(repo, '.ocrag', 'lance', 'chunks.lance', '_indices');
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0;
};

test('index runs build no full-text index, and gc drops an old one with the same answers', async () => {
  const repo = makeFixtureRepo();
  await runJson(['index'], repo);
  assert.equal(indexFiles(repo), 0);
  const query = ['search', 'parse command line arguments', '-k', '5', '--no-update'];
  const before = await runJson<unknown[]>(query, repo);

  const store = await ChunkStore.open(path.join(repo, '.ocrag', 'lance'), 512);
  try {
    await store.ensureTextIndex();
  } finally {
    store.close();
  }
  assert.ok(indexFiles(repo) > 0, 'a store as older indexers left it');
  await runJson(['gc'], repo);
  assert.equal(indexFiles(repo), 0);
  assert.deepEqual(await runJson<unknown[]>(query, repo), before);
});
