// An entry of the index folder that another ocrag process makes and removes while this one checks the folder (a
// lock being taken writes `index.lock.<pid>.<random>.tmp` and removes it at once) is not a reason to fail: a
// search in a linked worktree once ended "ENOENT … lstat …/.ocrag/index.lock.15521.j0viz0vsxpf.tmp" while a hook's
// run took the lock. A real second process churns files in a real index folder.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { openRepo } from '../../src/git/repo.js';
import { indexFolderProblem, makeIndexFolder } from '../../src/store/index-folder.js';
import { indexLayout } from '../../src/store/layout.js';
import { committedRepo, tempDir } from '../helpers.js';

test('files that come and go in the index folder while it is checked are no problem and no error', async () => {
  const repo = committedRepo(path.join(tempDir('churn'), 'r'), { 'a.py': 'x = 1\n' }, 'one');
  const layout = indexLayout(await openRepo(repo));
  makeIndexFolder(layout);
  const churn = `const fs = require('node:fs'); const end = Date.now() + 1500; let i = 0;
    while (Date.now() < end) { const f = ${JSON.stringify(layout.dir)} + '/index.lock.' + process.pid + '.' + (i++) + '.tmp'; fs.writeFileSync(f, 'x'); fs.rmSync(f); }`;
  const child = spawn(process.execPath, ['-e', churn], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let checks = 0;
  try {
    // Until the churn ends: each check lists the folder and looks at every entry it listed.
    while (child.exitCode === null) {
      assert.equal(await indexFolderProblem(layout), null);
      checks++;
    }
  } finally {
    child.kill();
    await exited;
  }
  assert.ok(checks > 0);
});
