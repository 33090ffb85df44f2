// The index folder is out of `git status` from the moment it exists: a hook's detached run makes `.ocrag/` before
// it indexes, and a `git status` in between listed it when only the indexer wrote the exclude line.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { openRepo } from '../../src/git/repo.js';
import { makeIndexFolder } from '../../src/store/index-folder.js';
import { indexLayout } from '../../src/store/layout.js';
import { committedRepo, git, tempDir } from '../helpers.js';

describe('the index folder and git status', () => {
  test('making the folder writes the exclude line first, once; git status never lists it', async () => {
    const repo = committedRepo(path.join(tempDir('exclude'), 'r'), { 'a.py': 'x = 1\n' }, 'one');
    const layout = indexLayout(await openRepo(repo));
    const exclude = path.join(repo, '.git', 'info', 'exclude');
    fs.writeFileSync(exclude, '# mine\n*.tmp'); // the user's own lines, the last one unterminated
    makeIndexFolder(layout);
    assert.ok(fs.statSync(layout.dir).isDirectory());
    assert.equal(git(repo, 'status', '--porcelain', '--untracked-files=all'), '');
    makeIndexFolder(layout);
    assert.equal(fs.readFileSync(exclude, 'utf8'), '# mine\n*.tmp\n# ocrag index\n/.ocrag/\n');
  });

  test('from a linked worktree the line goes to the common git dir, which every worktree reads', async () => {
    const repo = committedRepo(path.join(tempDir('exclude-wt'), 'r'), { 'a.py': 'x = 1\n' }, 'one');
    const linked = path.join(path.dirname(repo), 'linked');
    git(repo, 'worktree', 'add', '-q', '-b', 'other', linked);
    makeIndexFolder(indexLayout(await openRepo(linked)));
    assert.ok(fs.existsSync(path.join(repo, '.ocrag')), 'the index lives in the main worktree');
    assert.match(fs.readFileSync(path.join(repo, '.git', 'info', 'exclude'), 'utf8'), /^\/\.ocrag\/$/m);
    assert.equal(git(repo, 'status', '--porcelain', '--untracked-files=all'), '');
  });
});
