import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { BlobReader } from '../../src/git/blobs.js';
import { openRepo, openRepoWithHead, readHead, resolveRevision } from '../../src/git/repo.js';
import { listTree } from '../../src/git/tree.js';
import { OcragError } from '../../src/util/errors.js';
import { git, makeFixtureRepo, tempDir } from '../helpers.js';

describe('git access on a real repository', () => {
  let repo: string;
  before(() => {
    repo = makeFixtureRepo();
  });

  test('lists the tree with kinds, sizes and exact paths', async () => {
    const entries = await listTree(repo, 'HEAD');
    const byPath = new Map(entries.map((e) => [e.path, e]));
    assert.equal(byPath.get('vendor/lib')?.kind, 'submodule');
    assert.equal(byPath.get('data/link-to-args.ts')?.kind, 'symlink');
    assert.equal(byPath.get('src/cli/args.ts')?.kind, 'file');
    assert.equal(byPath.get('data/huge.txt')?.size, fs.statSync(path.join(repo, 'data/huge.txt')).size);
    assert.ok(byPath.has('docs/notes é/über notes.md'), 'non-ASCII paths are not quoted');
    assert.equal(byPath.get('src/cli/args.ts')?.blob, git(repo, 'rev-parse', 'HEAD:src/cli/args.ts'));
  });

  test('reads many blobs through one process, in order, and reports missing ones', async () => {
    const entries = (await listTree(repo, 'HEAD')).filter((e) => e.kind === 'file');
    const reader = new BlobReader(repo);
    try {
      const contents = await Promise.all(entries.map((e) => reader.read(e.blob)));
      entries.forEach((e, i) => assert.deepEqual(contents[i], fs.readFileSync(path.join(repo, e.path)), e.path));
      assert.equal(await reader.read('0'.repeat(40)), null);
    } finally {
      await reader.close();
    }
  });

  test('finds the repository from a subfolder and follows a detached HEAD', async () => {
    const info = await openRepoWithHead(path.join(repo, 'server'));
    assert.equal(info.repo.root, fs.realpathSync(repo));
    assert.equal(info.head.branch, 'main');
    assert.equal(info.head.commit, git(repo, 'rev-parse', 'HEAD'));
    git(repo, 'checkout', '-q', '--detach', 'HEAD');
    const detached = await openRepoWithHead(repo);
    assert.equal(detached.head.branch, null);
    assert.equal(detached.head.commit, info.head.commit);
    assert.deepEqual(await readHead(info.repo.root), detached.head);
    // A snapshot stays what HEAD was when it was read.
    assert.ok(Object.isFrozen(info.head) && Object.isFrozen(info.repo));
    assert.equal(info.head.branch, 'main');
    git(repo, 'checkout', '-q', 'main');
  });

  test('a linked worktree shares the common git dir', async () => {
    const wt = path.join(tempDir('wt'), 'feature');
    git(repo, 'worktree', 'add', '-q', '-b', 'feature', wt);
    const main = await openRepo(repo);
    const linked = await openRepo(wt);
    assert.equal(linked.commonDir, main.commonDir);
    assert.notEqual(linked.gitDir, main.gitDir);
    assert.equal((await readHead(linked.root)).branch, 'feature');
  });

  test('rejects unknown revisions and option-like revisions', async () => {
    await assert.rejects(resolveRevision(repo, 'no-such-branch'), OcragError);
    await assert.rejects(resolveRevision(repo, '--output=/tmp/x'), /invalid revision/);
    assert.equal((await resolveRevision(repo, 'main')).commit, git(repo, 'rev-parse', 'main'));
  });
});
