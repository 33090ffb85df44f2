// A dotfiles repository (its work tree a home folder) sets status.showUntrackedFiles=no so that git never lists the
// home's other files; ocrag used to pass --untracked-files=all and so read and answered from them. It reads what the
// user lets git show: the built CLI in a real repository, once with the setting and once without.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { committedRepo, git, runJson, tempDir } from '../helpers.js';

interface Result {
  path: string;
}

const QUESTION = 'quarterly payroll spreadsheet for the accountant';
const cold = { OCRAG_WARM: '0' };

describe('untracked files follow status.showUntrackedFiles', () => {
  const home = committedRepo(path.join(tempDir('dotfiles'), 'home'), { '.bashrc': 'export EDITOR=vim\nalias ll="ls -l"\n' }, 'dotfiles');
  fs.mkdirSync(path.join(home, 'Documents'));
  fs.writeFileSync(path.join(home, 'Documents', 'payroll.md'), '# Quarterly payroll\n\nThe payroll spreadsheet for the accountant, every quarter.\n');

  it('answers from an untracked file in a new folder by default', async () => {
    const results = await runJson<Result[]>(['search', QUESTION, '-k', '3'], home, cold);
    assert.ok(results.some((r) => r.path === 'Documents/payroll.md'), JSON.stringify(results));
  });

  it('never reads it when the repository says no, and still sees an edit of a tracked file', async () => {
    git(home, 'config', 'status.showUntrackedFiles', 'no');
    fs.appendFileSync(path.join(home, '.bashrc'), '# the payroll spreadsheet alias for the accountant\nalias payroll="open ~/Documents"\n');
    const results = await runJson<Result[]>(['search', QUESTION, '-k', '3'], home, cold);
    assert.ok(!results.some((r) => r.path.startsWith('Documents/')), JSON.stringify(results));
    assert.ok(results.some((r) => r.path === '.bashrc'), JSON.stringify(results));
  });
});
