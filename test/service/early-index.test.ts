// A one-shot search's first moment in a fresh clone (service/early-index.ts): the background index run is started
// from the file system's word alone, only where the search would start one itself, and git is told to ignore the
// index folder before that run can make it. Real git repositories; the starter is a recorder, no run is started.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { trackedCount } from '../../src/git/index-file.js';
import { EARLY_FILES } from '../../src/index/early/early-budget.js';
import { startIndexEarly } from '../../src/service/early-index.js';
import { committedRepo, git, tempDir } from '../helpers.js';

function repoOf(files: number): string {
  const texts = Object.fromEntries(Array.from({ length: files }, (_, i) => [`src/part${i}.ts`, `export const part${i} = ${i};\n`]));
  return committedRepo(path.join(tempDir('early-index'), 'repo'), texts, 'parts');
}

/** What startIndexEarly started from `cwd`, and what it said. */
function startedFrom(cwd: string): { root: string | null; started: string[] } {
  const started: string[] = [];
  return { root: startIndexEarly(cwd, (root) => started.push(root)), started };
}

const excluded = (repo: string) => fs.readFileSync(path.join(repo, '.git', 'info', 'exclude'), 'utf8').split('\n').includes('/.ocrag/');

test('a fresh clone with more files than an early answer reads: its run starts, from any folder in it, with .ocrag/ ignored first', () => {
  const repo = fs.realpathSync(repoOf(EARLY_FILES + 1));
  assert.equal(trackedCount(path.join(repo, '.git', 'index')), EARLY_FILES + 1);
  assert.deepEqual(startedFrom(path.join(repo, 'src')), { root: repo, started: [repo] });
  assert.ok(excluded(repo), '/.ocrag/ in .git/info/exclude');
  assert.equal(git(repo, 'status', '--porcelain'), '');
  fs.mkdirSync(path.join(repo, '.ocrag'));
  assert.equal(git(repo, 'status', '--porcelain', '--untracked-files=all'), '', 'the folder a run makes is no edit of the clone');
});

test('no run where the search starts none or indexes as quickly itself: an index folder there, few files, a worktree, no repository', () => {
  const indexed = repoOf(EARLY_FILES + 1);
  fs.mkdirSync(path.join(indexed, '.ocrag'));
  assert.deepEqual(startedFrom(indexed), { root: null, started: [] });

  const small = repoOf(EARLY_FILES);
  assert.deepEqual(startedFrom(small), { root: null, started: [] });
  assert.ok(!fs.existsSync(path.join(small, '.git', 'info', 'exclude')) || !excluded(small), 'nothing written where no run starts');

  const main = repoOf(EARLY_FILES + 1);
  const worktree = path.join(tempDir('early-index-wt'), 'wt');
  git(main, 'worktree', 'add', '-q', worktree);
  assert.deepEqual(startedFrom(worktree), { root: null, started: [] });

  assert.deepEqual(startedFrom(tempDir('early-index-none')), { root: null, started: [] });
});

test('a git index file that is missing or not one tracks nothing we can count', () => {
  const dir = tempDir('early-index-file');
  assert.equal(trackedCount(path.join(dir, 'index')), null);
  fs.writeFileSync(path.join(dir, 'index'), 'not a git index at all');
  assert.equal(trackedCount(path.join(dir, 'index')), null);
});
