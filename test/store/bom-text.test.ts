// A file that begins with two byte-order marks: the first is the file's encoding mark (dropped when it is read as
// UTF-8), the second is text, and stays text: stored, checked, held in the search snapshot and answered exactly.
// It used to make the store's own integrity check call the whole index damaged. Real git, LanceDB, model, CLI.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import fs from 'node:fs';
import { cloneRepo, committedRepo, git, runCli, runJson, tempDir } from '../helpers.js';
import { toLegacyLayout } from './legacy-layout.js';

/** A file that begins with two byte-order marks, and a plain one. */
const BOM_FILES = {
  'notes/boms.md': '\uFEFF\uFEFF# Encoding marks\n\nA byte-order mark at the start of a file tells readers it is UTF-8.\n',
  'src/plain.ts': 'export const plain = 1;\n',
};

test('a text that begins with U+FEFF is stored, checked and answered as it is; the index is not called damaged', async () => {
  const repo = committedRepo(path.join(tempDir('bom'), 'bom'), BOM_FILES, 'two marks');
  assert.equal((await runCli(['index'], repo)).code, 0);
  for (let round = 0; round < 2; round++) {
    // The second search reads the rows back from the snapshot the first one wrote.
    const results = await runJson<{ path: string; text: string }[]>(['search', '--json', '--whole', 'byte-order mark encoding'], repo);
    const hit = results.find((r) => r.path === 'notes/boms.md');
    assert.ok(hit, JSON.stringify(results));
    assert.equal(hit.text.charCodeAt(0), 0xfeff, 'the second mark is text and stays');
    assert.ok(hit.text.startsWith('\uFEFF# Encoding marks'));
  }
  const doctor = await runJson<{ name: string; status: string; detail: string }[]>(['doctor', '--json'], repo);
  const index = doctor.find((c) => c.name === 'index')!;
  assert.equal(index.status, 'ok', index.detail);
  const verify = await runCli(['doctor', '--verify', '--json'], repo);
  assert.equal(verify.code, 0, verify.stdout + verify.stderr);
});

test('an imported text that begins with U+FEFF is stored under the key its breadcrumb and text give; the index is not called damaged', async () => {
  const origin = committedRepo(path.join(tempDir('bom-share'), 'origin'), BOM_FILES, 'two marks');
  assert.equal((await runCli(['index'], origin)).code, 0);
  const artifact = path.join(path.dirname(origin), 'index.tar');
  assert.equal((await runCli(['export', '--out', artifact], origin)).code, 0);
  const clone = cloneRepo(origin, 'imported');
  const imported = await runCli(['import', artifact], clone);
  assert.equal(imported.code, 0, imported.stderr);
  const results = await runJson<{ path: string; text: string }[]>(['search', '--json', '--no-update', '--whole', 'byte-order mark encoding'], clone);
  assert.ok(results.find((r) => r.path === 'notes/boms.md')?.text.startsWith('\uFEFF# Encoding marks'), JSON.stringify(results));
  const doctor = await runJson<{ name: string; status: string; detail: string }[]>(['doctor', '--json'], clone);
  const index = doctor.find((c) => c.name === 'index')!;
  assert.equal(index.status, 'ok', index.detail);
});

test('a store of the one-table layout holding a text that begins with U+FEFF is upgraded under its key; the index is not called damaged', async () => {
  const repo = committedRepo(path.join(tempDir('bom-upgrade'), 'bom'), BOM_FILES, 'two marks');
  assert.equal((await runCli(['index'], repo)).code, 0);
  await toLegacyLayout(repo);
  // A new commit: the next run upgrades the store as it indexes.
  fs.writeFileSync(path.join(repo, 'src', 'more.ts'), 'export const more = 2;\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'more');
  const upgrade = await runCli(['index'], repo);
  assert.equal(upgrade.code, 0, upgrade.stderr);
  assert.match(upgrade.stderr, /upgrading the store/);
  const verify = await runCli(['doctor', '--verify', '--json'], repo);
  assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  const results = await runJson<{ path: string; text: string }[]>(['search', '--json', '--whole', 'byte-order mark encoding'], repo);
  assert.ok(results.find((r) => r.path === 'notes/boms.md')?.text.startsWith('\uFEFF# Encoding marks'), JSON.stringify(results));
});
