// A user's index meets a failing disk: the built CLI as a user runs it, from the first search to the rebuild
// that brings the answers back. Nothing is ever answered from damaged bytes, nothing is written outside the
// repository, and the fix each message names is the one that works.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { runCli, tempDir } from '../helpers.js';
import { layoutOf } from '../robustness/robustness-helpers.js';
import { answers, DAMAGED, flipSection, garble, indexedRepo, largestDataFile, snapshotFile } from '../security/store-helpers.js';

/** Every path under a folder with its size and modification time: what "nothing changed" compares. */
function listing(dir: string, skip: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => path.join(e.parentPath, e.name))
    .filter((p) => !p.startsWith(skip))
    .map((p) => `${path.relative(dir, p)} ${fs.lstatSync(p).size} ${fs.lstatSync(p).mtimeMs}`)
    .sort();
}

let indexed: string;

before(async () => {
  indexed = await indexedRepo('store-journey');
});

/** A copy of the indexed repository at a path of its own, as a user's clone of it with its index would be. */
function userRepo(label: string): string {
  const repo = path.join(tempDir(label), 'repo');
  fs.cpSync(indexed, repo, { recursive: true, verbatimSymlinks: true });
  return repo;
}

test('a data file garbled under a working index: the snapshot keeps answering, doctor finds it, searches refuse once the snapshot is gone, --rebuild brings the answers back', async () => {
  const repo = userRepo('store-journey');
  const outside = path.dirname(repo);
  const outsideBefore = listing(outside, repo);
  const first = await answers(repo);
  for (const a of first) assert.equal(a.code, 0, a.stderr);
  const same = (label: string, now: typeof first) => assert.deepEqual(now.map((a) => [a.code, a.stdout]), first.map((a) => [0, a.stdout]), label);

  garble(largestDataFile(repo, 'contents'), 0.5);
  same('answered from the search snapshot, which holds every row of the view, checked when it was made', await answers(repo));
  const doctor = await runCli(['doctor', '--json'], repo, { RUST_BACKTRACE: '0' });
  const index = (JSON.parse(doctor.stdout) as { name: string; status: string; fix?: string }[]).find((c) => c.name === 'index')!;
  assert.deepEqual([index.status, index.fix], ['fail', 'run "ocrag index --rebuild"'], 'doctor reads the rows themselves');

  fs.rmSync(layoutOf(repo).resident, { recursive: true });
  for (const a of await answers(repo)) {
    assert.equal(a.code, 4, a.stderr);
    assert.match(a.stderr.trim().split('\n').at(-1)!, DAMAGED);
    assert.equal(a.stdout, '');
  }
  const rebuild = await runCli(['index', '--rebuild'], repo);
  assert.equal(rebuild.code, 0, rebuild.stderr);
  same('the answers from before the damage', await answers(repo));
  assert.deepEqual(listing(outside, repo), outsideBefore, 'nothing changed outside the repository');
});

test('a search snapshot whose texts a disk garbled: every search answers as before, and the snapshot is whole again', async () => {
  const repo = userRepo('store-journey-snap');
  const first = await answers(repo);
  const file = snapshotFile(repo);
  flipSection(file, 'texts');
  const again = await answers(repo);
  assert.deepEqual(again.map((a) => [a.code, a.stdout]), first.map((a) => [0, a.stdout]));
  const doctor = await runCli(['doctor', '--json'], repo);
  const index = (JSON.parse(doctor.stdout) as { name: string; status: string }[]).find((c) => c.name === 'index')!;
  assert.equal(index.status, 'ok', 'the snapshot was rebuilt by the first search that read a damaged text');
  flipSection(snapshotFile(repo), 'vectors');
  const warned = await runCli(['doctor', '--json'], repo);
  const check = (JSON.parse(warned.stdout) as { name: string; status: string; detail: string; fix?: string }[]).find((c) => c.name === 'index')!;
  assert.deepEqual([check.status, check.fix], ['warn', 'nothing to do: the next search rebuilds it from the store']);
  assert.match(check.detail, /^search snapshot damaged: [0-9a-f]{16}\.snap: torn, or its header or an eager section does not match its checksum$/);
});
