// Odd repositories rather than odd files: bare, empty, shallow, sparse, detached, 100,000 commits deep, and one
// holding a 50 MB single-line file. Small on purpose, except where the size is the point.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { gitIn, marked } from '../../fixtures/hostile-repo.js';
import { writeLongHistory } from '../../fixtures/synthetic-repo.js';
import type { OcragError } from '../../src/util/errors.js';
import { tempDir } from '../helpers.js';
import { cli, manifestsOf, withIndex } from './robustness-helpers.js';

/** A three-file repository to clone in odd ways. */
function tinyRepo(): string {
  const dir = path.join(tempDir('tiny'), 'origin');
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'docs'), { recursive: true });
  gitIn(path.dirname(dir), 'init', '-q', '-b', 'main', dir);
  fs.writeFileSync(path.join(dir, 'src/inside.ts'), marked('markerInsideCone'));
  fs.writeFileSync(path.join(dir, 'docs/outside.ts'), marked('markerOutsideCone'));
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', 'one');
  fs.writeFileSync(path.join(dir, 'src/second.ts'), marked('markerSecondCommit'));
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', 'two');
  return dir;
}

const clone = (origin: string, ...args: string[]): string => {
  const dir = path.join(tempDir('clone'), 'clone');
  execFileSync('git', ['clone', '-q', ...args, `file://${origin}`, dir], { stdio: 'ignore' });
  return dir;
};

const topPath = (repo: string, query: string) => withIndex(repo, async (index) => (await index.search(query, { k: 1 }))[0]?.path);

describe('odd repositories', () => {
  let origin: string;

  before(() => {
    origin = tinyRepo();
  });

  test('bare repository: a clear error, exit 3', async () => {
    const bare = clone(origin, '--bare');
    const r = await cli(['index'], bare);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /^ocrag: bare repository: ocrag indexes a work tree/);
    await assert.rejects(withIndex(path.join(bare, 'refs'), async () => undefined), (e: OcragError) => e.kind === 'no-workspace');
  });

  test('empty repository: exit 3, "no commits yet", for index and search alike', async () => {
    const empty = path.join(tempDir('empty'), 'repo');
    gitIn(path.dirname(empty), 'init', '-q', empty);
    for (const args of [['index'], ['search', 'anything']]) {
      const r = await cli(args, empty);
      assert.equal(r.code, 3, r.stderr);
      assert.match(r.stderr, /no commits yet/);
    }
    // status must not send the user to a command that can only fail
    const status = await cli(['status'], empty);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /nothing to index: commit something first/);
    assert.doesNotMatch(status.stdout, /run ocrag index/);
  });

  test('shallow clone: the checked-out tree is all there is to read, and it is enough', async () => {
    const shallow = clone(origin, '--depth', '1');
    assert.equal(gitIn(shallow, 'rev-parse', '--is-shallow-repository'), 'true');
    assert.equal(await topPath(shallow, 'markerSecondCommit'), 'src/second.ts');
  });

  test('sparse checkout: the whole commit is indexed from git objects, files outside the cone included', async () => {
    const sparse = clone(origin);
    gitIn(sparse, 'sparse-checkout', 'set', 'src');
    assert.equal(fs.existsSync(path.join(sparse, 'docs/outside.ts')), false);
    assert.equal(await topPath(sparse, 'markerInsideCone'), 'src/inside.ts');
    assert.equal(await topPath(sparse, 'markerOutsideCone'), 'docs/outside.ts');
  });

  test('partial clone (blob:none) with sparse checkout, offline: blobs never fetched are skipped as "not fetched", nothing is downloaded', async () => {
    gitIn(origin, 'config', 'uploadpack.allowFilter', 'true');
    const partial = clone(origin, '--filter=blob:none', '--sparse');
    gitIn(partial, 'config', 'gc.auto', '0');
    gitIn(partial, 'sparse-checkout', 'set', 'src');
    const before = gitIn(partial, 'count-objects', '-v');
    // The remote is gone: a lazy fetch would fail loudly.
    gitIn(partial, 'remote', 'set-url', 'origin', `file://${origin}-gone`);
    assert.equal(await topPath(partial, 'markerInsideCone'), 'src/inside.ts');
    assert.equal(manifestsOf(partial)['branch-main'].skipped['docs/outside.ts'], 'not fetched');
    assert.equal(gitIn(partial, 'count-objects', '-v'), before, 'no object was fetched');
  });

  test('detached HEAD: indexed under its commit, searchable, and the branch manifest is left alone', async () => {
    const detached = clone(origin);
    await withIndex(detached, (index) => index.index());
    gitIn(detached, 'checkout', '-q', '--detach', 'HEAD~1');
    assert.equal(await topPath(detached, 'markerInsideCone'), 'src/inside.ts');
    const keys = Object.keys(manifestsOf(detached)).sort();
    assert.deepEqual(keys, ['branch-main', `detached-${gitIn(detached, 'rev-parse', 'HEAD')}`]);
    assert.equal(manifestsOf(detached)[keys[1]].files['src/second.ts'], undefined);
  });

  test('100,000 commits of history: indexing reads only the tree, as fast as a one-commit repository', async () => {
    const deep = path.join(tempDir('history'), 'repo');
    await writeLongHistory(deep, 100_000);
    assert.equal(gitIn(deep, 'rev-list', '--count', 'HEAD'), '100000');
    const started = performance.now();
    const summary = await withIndex(deep, (index) => index.index());
    const seconds = (performance.now() - started) / 1000;
    assert.equal(summary.files, 2);
    assert.ok(seconds < 10, `indexing took ${seconds.toFixed(1)} s`);
    assert.equal(await topPath(deep, 'history depth'), 'src/history.ts');
  });

  test('a 50 MB single-line file: skipped by size without being read; allowed in, it is read in one piece and skipped as minified', async () => {
    const repo = path.join(tempDir('bigfile'), 'repo');
    gitIn(path.dirname(repo), 'init', '-q', '-b', 'main', repo);
    const unit = 'var a=function(b){return b*2},';
    fs.writeFileSync(path.join(repo, 'bundle.js'), unit.repeat(Math.ceil(50e6 / unit.length)));
    fs.writeFileSync(path.join(repo, 'small.ts'), marked('markerNextToHuge'));
    gitIn(repo, '-c', 'core.compression=1', 'add', '-A');
    gitIn(repo, 'commit', '-q', '-m', 'big');
    await withIndex(repo, (index) => index.index());
    assert.equal(manifestsOf(repo)['branch-main'].skipped['bundle.js'], 'too large');
    const started = performance.now();
    const allowed = await withIndex(repo, async (index) => {
      const summary = await index.index();
      return { summary, top: (await index.search('markerNextToHuge', { k: 1 }))[0]?.path };
    }, { maxFileBytes: 64e6 });
    assert.equal(manifestsOf(repo)['branch-main'].skipped['bundle.js'], 'minified');
    assert.equal(allowed.top, 'small.ts');
    assert.ok(performance.now() - started < 15_000, `${performance.now() - started} ms`);
  });
});
