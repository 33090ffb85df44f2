// A store of the one-table layout (before contents were stored apart) is searched as it is, takes a search's
// working-tree chunks as it is, and is upgraded in place by the next index run without embedding anything again;
// a run killed inside the upgrade leaves it searchable and the next one completes it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { readMeta } from '../../src/store/meta.js';
import { answersOf, git, makeFixtureRepo, runCli, runJson } from '../helpers.js';
import { cli, copyRepo, layoutOf, storedIds } from '../robustness/robustness-helpers.js';
import { seamEnv } from '../support/seams.js';
import { tablesOf, toLegacyLayout } from './legacy-layout.js';

const QUERIES = ['parse command line arguments', 'LRUCache evict', 'connect to the database'];

describe('a store of the one-table layout', () => {
  let legacy: string;
  let answers: unknown[];
  let ids: string[];

  before(async () => {
    const repo = makeFixtureRepo();
    await runJson(['index'], repo);
    answers = await answersOf(repo, QUERIES);
    ids = (await storedIds(repo)).sort();
    await toLegacyLayout(repo);
    legacy = repo;
  });

  test('is searched as it is, with the same answers', async () => {
    assert.deepEqual(tablesOf(legacy), ['blob_marks', 'chunks']);
    assert.deepEqual(await answersOf(copyRepo(legacy), QUERIES), answers);
  });

  test("takes a search's working-tree chunks as it is", async () => {
    const repo = copyRepo(legacy);
    // Two files with the same function, each its own write: the second finds the content written by the first.
    const rollback = 'export function rollbackLedgerTransaction(id: string): void {\n  console.log("rollback", id);\n}\n';
    fs.writeFileSync(path.join(repo, 'src', 'rollback.ts'), rollback);
    fs.writeFileSync(path.join(repo, 'src', 'rollback-copy.ts'), rollback);
    const hits = await runJson<{ path: string }[]>(['search', 'rollback ledger transaction', '-k', '2'], repo, seamEnv({ chunksPerWrite: 1 }));
    assert.deepEqual(hits.map((h) => h.path).sort(), ['src/rollback-copy.ts', 'src/rollback.ts']);
    assert.deepEqual(tablesOf(repo), ['blob_marks', 'chunks'], 'a search never upgrades');
  });

  test('the next index run upgrades it in place, embedding only what is new', async () => {
    const repo = copyRepo(legacy);
    fs.appendFileSync(path.join(repo, 'src', 'util', 'color.ts'), '\nexport function mixColors(a: string, b: string): string {\n  return a < b ? a : b;\n}\n');
    git(repo, 'checkout', '-q', '-b', 'change');
    git(repo, 'commit', '-q', '-am', 'a change');
    const run = await runCli(['index', '--json'], repo);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /upgrading the store to keep each distinct chunk content once \(\d+ chunks, nothing re-embedded\)/);
    assert.equal((JSON.parse(run.stdout) as { chunksEmbedded: number }).chunksEmbedded, 1, 'only the new function');
    assert.deepEqual(tablesOf(repo), ['blob_marks', 'chunk_refs', 'contents']);
    assert.equal(readMeta(layoutOf(repo).meta)!.format, 2);
    const after = await storedIds(repo);
    assert.equal(after.length, new Set(after).size, 'no chunk twice');
    for (const id of ids) assert.ok(after.includes(id), 'every chunk id kept');
    git(repo, 'checkout', '-q', 'main');
    assert.deepEqual(await answersOf(repo, QUERIES), answers);
  });

  for (const moment of ['store.upgrade-copied', 'store.upgrade-switched']) {
    test(`an upgrade killed at ${moment} leaves the store searchable, and the next run completes it`, async () => {
      const repo = copyRepo(legacy);
      fs.appendFileSync(path.join(repo, 'src', 'util', 'color.ts'), '\nexport function mixColors(a: string, b: string): string {\n  return a < b ? a : b;\n}\n');
      git(repo, 'checkout', '-q', '-b', 'change');
      git(repo, 'commit', '-q', '-am', 'a change');
      const killed = await cli(['index'], repo, seamEnv({ crashAt: moment }));
      assert.equal(killed.signal, 'SIGKILL', `the run reached ${moment} (exit ${killed.code}: ${killed.stderr})`);
      git(repo, 'checkout', '-q', 'main');
      assert.deepEqual(await answersOf(repo, QUERIES), answers);
      git(repo, 'checkout', '-q', 'change');
      const run = await runJson<{ chunksEmbedded: number }>(['index'], repo);
      assert.equal(run.chunksEmbedded, 1);
      assert.deepEqual(tablesOf(repo), ['blob_marks', 'chunk_refs', 'contents']);
      const after = await storedIds(repo);
      assert.equal(after.length, new Set(after).size, 'no chunk twice');
      for (const id of ids) assert.ok(after.includes(id), 'every chunk id kept');
    });
  }
});
