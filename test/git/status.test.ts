import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, test } from 'node:test';
import { parseStatus, workingChanges } from '../../src/git/status.js';
import { committedRepo, git, tempDir } from '../helpers.js';

test('an untracked file in any node_modules folder is no change; every other record is, node_modules or not', () => {
  const records = [
    '?? node_modules/pkg/index.js',
    '?? web/node_modules/pkg/index.js',
    '?? src/new.ts',
    '?? node_modules_old/keep.js',
    '?? mynode_modules/keep.js',
    '?? docs/node_modules',
    ' M vendor/node_modules/kept/index.js',
    'A  node_modules/staged.js',
    ' D node_modules/gone.js',
  ];
  const out = parseStatus(Buffer.from(records.map((r) => `${r}\0`).join(''), 'latin1'));
  assert.deepEqual(out, [
    { path: 'src/new.ts', deleted: false },
    { path: 'node_modules_old/keep.js', deleted: false },
    { path: 'mynode_modules/keep.js', deleted: false },
    { path: 'docs/node_modules', deleted: false },
    { path: 'vendor/node_modules/kept/index.js', deleted: false },
    { path: 'node_modules/staged.js', deleted: false },
    { path: 'node_modules/gone.js', deleted: true },
  ]);
});

describe('workingChanges follows status.showUntrackedFiles and otherwise lists what --untracked-files=all does', () => {
  const repo = committedRepo(path.join(tempDir('status'), 'r'), { 'a.txt': 'a\n', '.gitignore': '*.log\nbuild/\n', 'lib/sub/keep.txt': 'k\n' }, 'first');
  // A one-shot search starts status in the user's folder (index/context.ts): the same list from a subfolder.
  const inside = [repo, path.join(repo, 'lib', 'sub')];
  fs.writeFileSync(path.join(repo, 'a.txt'), 'b\n');
  for (const file of ['new/x.py', 'new/deep/y.py', 'new/z.log', 'new/build/o.py', 'new/node_modules/p/i.js', 'top.py', 'z dir/with space.py', 'node_modules/q.js', 'b/c/d/e.py']) {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), 'x\n');
  }
  // A folder whose name is not UTF-8 (legal in git) cannot be a pathspec string: listed another way.
  const latin = Buffer.concat([Buffer.from(`${repo}/`), Buffer.from([0x63, 0x61, 0x66, 0xe9])]);
  fs.mkdirSync(latin);
  fs.writeFileSync(Buffer.concat([latin, Buffer.from('/f.py')]), 'x\n');
  fs.mkdirSync(path.join(repo, 'nested'));
  git(path.join(repo, 'nested'), 'init', '-q');
  fs.writeFileSync(path.join(repo, 'nested', 'n.py'), 'x\n');
  const everything = () => parseStatus(execFileSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all'], { cwd: repo }));

  it('by default, with plain folder names only, opens each untracked folder by pathspec, in git order', async () => {
    const aside = path.join(tempDir('status-aside'), 'latin');
    fs.renameSync(latin, aside);
    try {
      for (const dir of inside) {
        const changes = await workingChanges(dir);
        assert.deepEqual(changes, everything(), dir);
        assert.ok(changes.some((c) => c.path === 'new/deep/y.py') && changes.some((c) => c.path === 'z dir/with space.py'), JSON.stringify(changes));
      }
    } finally {
      fs.renameSync(aside, latin);
    }
  });

  it('by default (normal: folders shown collapsed) opens each untracked folder, in git order', async () => {
    for (const dir of inside) {
      const changes = await workingChanges(dir);
      assert.deepEqual(changes, everything(), dir);
      assert.ok(changes.some((c) => c.path === 'new/deep/y.py') && changes.some((c) => c.path === '"caf\\351/f.py"'), JSON.stringify(changes));
    }
  });

  it('reads no untracked file when the user set it to no, and still sees the edit', async () => {
    git(repo, 'config', 'status.showUntrackedFiles', 'no');
    try {
      assert.deepEqual(await workingChanges(repo), [{ path: 'a.txt', deleted: false }]);
    } finally {
      git(repo, 'config', '--unset', 'status.showUntrackedFiles');
    }
  });

  it('with all, lists the same files', async () => {
    git(repo, 'config', 'status.showUntrackedFiles', 'all');
    try {
      assert.deepEqual(await workingChanges(repo), everything());
    } finally {
      git(repo, 'config', '--unset', 'status.showUntrackedFiles');
    }
  });
});
