// A CodeIndex follows HEAD by taking a new snapshot: a context handed out (to a run, say) keeps the HEAD it had.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CodeIndex } from '../../src/service/code-index.js';
import { git, makeFixtureRepo } from '../helpers.js';

test('re-reading HEAD makes a new context and leaves the old one as it was', async () => {
  const repo = makeFixtureRepo();
  const index = await CodeIndex.open(repo);
  try {
    const before = index.ctx;
    const first = git(repo, 'rev-parse', 'HEAD');
    assert.deepEqual(before.head, { branch: 'main', commit: first, tree: git(repo, 'rev-parse', 'HEAD^{tree}') });
    fs.writeFileSync(path.join(repo, 'NEW.md'), 'new\n');
    git(repo, 'add', 'NEW.md');
    git(repo, 'commit', '-qm', 'new file');
    git(repo, 'checkout', '-qb', 'topic');
    // The first refresh is answered by what open() read; the second asks git.
    await index.refreshHead();
    await index.refreshHead();
    assert.notEqual(index.ctx, before);
    assert.deepEqual([index.ctx.head.branch, index.ctx.head.commit], ['topic', git(repo, 'rev-parse', 'HEAD')]);
    assert.deepEqual([before.head.branch, before.head.commit], ['main', first]);
    assert.equal(index.ctx.repo, before.repo, 'where the repository lives does not change');
    assert.ok(Object.isFrozen(before.head));
  } finally {
    await index.close();
  }
});
