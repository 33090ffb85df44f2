// A source inside the repository: what git shows there (tracked, or untracked and not ignored) is indexed with the
// tree already, so adding it would answer every file twice; a folder git ignores (generated docs, a local notes
// folder) is what a source inside is for, and used to be added with 0 files. The built CLI in a real repository.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { git, runCli, runJson, twoLanguageRepo } from './helpers.js';

interface Result {
  path: string;
  source?: string;
}

describe('sources inside the repository', () => {
  const repo = twoLanguageRepo();
  fs.writeFileSync(path.join(repo, '.gitignore'), 'notes/\n*.local.md\n*.log\n');
  git(repo, 'add', '.gitignore');
  git(repo, 'commit', '-qm', 'ignore notes');
  fs.mkdirSync(path.join(repo, 'drafts'));
  fs.writeFileSync(path.join(repo, 'drafts', 'plan.md'), '# Plan\n\nMigrate the billing ledger.\n');
  fs.mkdirSync(path.join(repo, 'notes'));
  fs.writeFileSync(path.join(repo, 'notes', 'oncall.md'), '# On call\n\nWhen the pager fires at night, restart the ingestion queue first.\n');
  fs.writeFileSync(path.join(repo, 'src', 'todo.local.md'), '# Todo\n\nRename the staging bucket.\n');
  // A folder git does not ignore, all of whose files it ignores by a pattern: git shows nothing of it.
  fs.mkdirSync(path.join(repo, 'logs'));
  fs.writeFileSync(path.join(repo, 'logs', 'deploy.log'), 'deploy failed: the vault token for the payments cluster expired at 03:12\n');

  it('refuses a tracked folder, a tracked file, an untracked folder and a link to one in one line, exit 2, from a subfolder too', async () => {
    // A link from outside to a folder of the repository is that folder.
    const link = path.join(path.dirname(repo), 'src-link');
    fs.symlinkSync(path.join(repo, 'src'), link);
    for (const [cwd, given] of [[repo, 'src'], [repo, 'tools/backup.py'], [repo, 'drafts'], [path.join(repo, 'src'), '.'], [repo, link]] as const) {
      const r = await runCli(['add', given], cwd);
      assert.equal(r.code, 2, `${given}: ${r.stderr}`);
      assert.match(r.stderr.trim(), /^ocrag: ".+" is inside the repository .+, whose files are indexed already/);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
    const sources = path.join(repo, '.ocrag', 'sources.json');
    assert.ok(!fs.existsSync(sources) || !fs.readFileSync(sources, 'utf8').includes('"root"'), 'no source was recorded');
  });

  it("refuses git's folder and ocrag's, or anything inside them, in one line, exit 2", async () => {
    await runCli(['index'], repo);
    for (const given of ['.git', '.git/hooks', '.ocrag', '.ocrag/manifests']) {
      const r = await runCli(['add', given], repo);
      assert.equal(r.code, 2, `${given}: ${r.stderr}`);
      assert.equal(r.stderr.trim(), `ocrag: cannot add "${given}": git's folder and ocrag's hold no files of yours`);
    }
    // In a worktree `.git` is a file naming the git folder: refused as git's, not as a file of the tree.
    const worktree = path.join(path.dirname(repo), 'wt');
    git(repo, 'worktree', 'add', '-q', worktree);
    const r = await runCli(['add', '.git'], worktree);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim(), `ocrag: cannot add ".git": git's folder and ocrag's hold no files of yours`);
  });

  // A folder git ignores, and one git shows no file of (each ignored by a pattern): read as folders of their own.
  for (const [folder, query, answer] of [
    ['notes', 'pager fires at night restart ingestion queue', 'notes:oncall.md'],
    ['logs', 'vault token payments cluster expired', 'logs:deploy.log'],
  ]) {
    it(`adds ${folder}/, which git shows no file of, and answers from its files`, async () => {
      const r = await runCli(['add', folder], repo);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout + r.stderr, /1 files indexed/);
      const results = await runJson<Result[]>(['search', query, '-k', '3'], repo);
      assert.equal(results[0]?.path, answer, JSON.stringify(results));
    });
  }

  it('adds a file git ignores, named from a subfolder', async () => {
    const r = await runCli(['add', 'todo.local.md'], path.join(repo, 'src'));
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.readFileSync(path.join(repo, '.ocrag', 'sources.json'), 'utf8').includes('todo.local.md'));
  });
});
