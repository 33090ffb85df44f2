import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { BlobReader } from '../../src/git/blobs.js';
import { listTree } from '../../src/git/tree.js';
import { git, runCli, tempDir } from '../helpers.js';

/*
 * A partial clone downloads an object it lacks from its remote as soon as any git command reads it. ocrag promises
 * no network at run time: with the remote reachable (as in a real monorepo), nothing may be fetched, whatever
 * ocrag runs. Git's own trace (GIT_TRACE2_EVENT, inherited by every git ocrag starts) shows any fetch.
 */

/** Cone files past the early answer's 40, so a first search greps the tree; as many outside the cone. */
const INSIDE = 50;
const OUTSIDE = 60;

function origin(): string {
  const dir = path.join(tempDir('partial-origin'), 'origin');
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'docs'), { recursive: true });
  git(path.dirname(dir), 'init', '-q', '-b', 'main', dir);
  for (let i = 0; i < INSIDE; i++) fs.writeFileSync(path.join(dir, `src/inside${i}.py`), `def inside_${i}(y):\n    return y + ${i}  # flux capacitor\n`);
  for (let i = 0; i < OUTSIDE; i++) fs.writeFileSync(path.join(dir, `docs/outside${i}.py`), `def outside_${i}(x):\n    """The flux capacitor, part ${i}."""\n    return x * ${i}\n`);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'one');
  git(dir, 'config', 'uploadpack.allowFilter', 'true');
  return dir;
}

function clone(from: string, ...args: string[]): string {
  const dir = path.join(tempDir('partial'), 'clone');
  execFileSync('git', ['clone', '-q', ...args, `file://${from}`, dir], { stdio: 'ignore' });
  git(dir, 'config', 'gc.auto', '0');
  return dir;
}

/** Every object the clone holds: a fetch adds some. */
const objects = (repo: string) => execFileSync('git', ['cat-file', '--batch-all-objects', '--batch-check'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/** Runs the CLI with git's trace on; answers with the result and the fetches any git it started made. */
async function traced(args: string[], cwd: string) {
  const trace = path.join(tempDir('trace'), 'events.json');
  const r = await runCli(args, cwd, { GIT_TRACE2_EVENT: trace });
  const events = fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8') : '';
  return { ...r, fetches: events.split('\n').filter((l) => /"event":"start"/.test(l) && /"fetch"|upload-pack/.test(l)) };
}

describe('a partial clone whose remote answers: ocrag downloads nothing', () => {
  let from: string;
  before(() => {
    from = origin();
  });

  test("a first search in a sparse blob:none clone answers from the cone and fetches none of the blobs outside it (was: one fetch per blob)", async () => {
    const repo = clone(from, '--filter=blob:none', '--sparse');
    git(repo, 'sparse-checkout', 'set', 'src');
    const held = objects(repo);
    const r = await traced(['search', 'flux capacitor inside_7', '-k', '3'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^src\/inside7\.py:1-2/);
    assert.deepEqual(r.fetches, []);
    assert.equal(objects(repo), held, 'no object was fetched');
    const list = await runCli(['list', '--committed-only'], repo);
    assert.doesNotMatch(list.stdout, /^docs\/outside\d+\.py\s+\d/m, 'files outside the cone are not indexed');
  });

  test("a teammate's artifact holding files outside the cone: refused in one line, exit 4, without fetching them (was: all fetched, then refused)", async () => {
    const full = clone(from);
    const artifact = path.join(tempDir('partial-artifact'), 'team.tar');
    assert.equal((await runCli(['export', '--out', artifact], full)).code, 0);
    const repo = clone(from, '--filter=blob:none', '--sparse');
    git(repo, 'sparse-checkout', 'set', 'src');
    const held = objects(repo);
    const r = await traced(['import', artifact], repo);
    assert.equal(r.code, 4, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr.trim(), /^ocrag: artifact refused: docs\/outside\d+\.py.*nothing was imported$/);
    assert.deepEqual(r.fetches, []);
    assert.equal(objects(repo), held, 'no object was fetched');
    const search = await runCli(['search', 'flux capacitor inside_7', '-k', '1'], repo);
    assert.match(search.stdout, /^src\/inside7\.py:1-2/, 'the clone indexes its cone as before');
  });

  test('the blob reader answers each blob the clone lacks as missing, the others in order, and fetches none', async () => {
    const repo = clone(from, '--filter=blob:none', '--sparse');
    git(repo, 'sparse-checkout', 'set', 'src');
    const held = objects(repo);
    const entries = await listTree(repo, 'HEAD');
    const [a, b, c] = entries.filter((e) => e.kind === 'file');
    const [x, y, z] = entries.filter((e) => e.kind === 'unfetched');
    const expected = (e: typeof a) => (e.kind === 'file' ? fs.readFileSync(path.join(repo, e.path), 'utf8') : null);
    const reader = new BlobReader(repo);
    const first = [a, x, y, b, z, c];
    assert.deepEqual((await Promise.all(first.map((e) => reader.read(e.blob)))).map((r) => r?.toString('utf8') ?? null), first.map(expected));
    // Asked as the reader closes: answered by the git started past the last missing blob.
    const last = [y, a];
    const pending = Promise.all(last.map((e) => reader.read(e.blob)));
    await reader.close();
    assert.deepEqual((await pending).map((r) => r?.toString('utf8') ?? null), last.map(expected));
    assert.equal(objects(repo), held, 'no object was fetched');
  });

  test('a treeless clone never checked out: every command says what to run, exit 3, one line, and nothing is fetched', async () => {
    const repo = clone(from, '--filter=tree:0', '--no-checkout');
    const held = objects(repo);
    for (const args of [['index'], ['search', 'flux capacitor'], ['index', '--dry-run']]) {
      const r = await traced(args, repo);
      assert.equal(r.code, 3, `${args.join(' ')}: ${r.stderr}`);
      assert.deepEqual(r.stderr.trim().split('\n'), ['ocrag: git needs objects this partial clone never fetched, and ocrag reads only what the clone holds: run "git checkout" to fetch the checked-out commit, then run ocrag again']);
      assert.deepEqual(r.fetches, []);
    }
    assert.equal(objects(repo), held, 'no object was fetched');
    git(repo, 'checkout', '-q');
    const r = await runCli(['search', 'flux capacitor outside_12', '-k', '1'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^docs\/outside12\.py:1-3/);
  });
});
