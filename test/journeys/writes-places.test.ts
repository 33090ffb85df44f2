// Journeys: the built CLI run where a user stands (subfolders, symlinked paths, worktrees, a bare repository's
// worktree, a plain folder): the index is where it belongs, nothing changes outside, the answers are the root's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { git, runCli, runJson, tempDir } from '../helpers.js';
import { copyNested, indexedWritesRepo, listing, WRITES_FILES, WRITES_QUERIES } from '../security/writes-helpers.js';

interface Hit {
  path: string;
  startLine: number;
  endLine: number;
  text: string;
}

async function answers(cwd: string, update = true): Promise<Hit[][]> {
  const out: Hit[][] = [];
  for (const q of WRITES_QUERIES) out.push((await runJson<Hit[]>(['search', q, '-k', '3', ...(update ? [] : ['--no-update'])], cwd)).map(({ path: p, startLine, endLine, text }) => ({ path: p, startLine, endLine, text })));
  return out;
}

/** Runs `index` then the queries in `cwd`, and checks that only `inside` changed under `watched`. */
async function journey(cwd: string, watched: string, inside: string[]): Promise<Hit[][]> {
  const was = listing(watched, inside);
  const r = await runCli(['index'], cwd);
  assert.equal(r.code, 0, r.stderr);
  const got = await answers(cwd);
  assert.deepEqual(listing(watched, inside), was, `nothing written outside ${inside.join(', ')}`);
  return got;
}

describe('writes: journeys from where a user stands', () => {
  let base: string;
  let fromRoot: Hit[][];
  before(async () => {
    base = await indexedWritesRepo('writes-journeys');
    fromRoot = await answers(base, false);
  });

  test('from depth 1 and depth 3, answers equal the root\'s and the index stays at the top', async () => {
    const repo = copyNested(base, 'writes-depth');
    const watched = path.dirname(path.dirname(repo));
    assert.deepEqual(await journey(path.join(repo, 'src'), watched, [repo]), fromRoot);
    fs.rmSync(path.join(repo, '.ocrag'), { recursive: true });
    // A fresh index made from three folders down.
    assert.deepEqual(await journey(path.join(repo, 'src', 'net', 'http'), watched, [repo]), fromRoot);
    assert.ok(fs.existsSync(path.join(repo, '.ocrag', 'store.json')));
    assert.deepEqual(fs.readdirSync(path.join(repo, 'src', 'net', 'http')), ['retry.py'], 'nothing written in the folder run from');
  });

  test('through a symlinked path, to the repository and to a subfolder', async () => {
    const repo = copyNested(base, 'writes-symlinked');
    const links = tempDir('writes-links');
    fs.symlinkSync(repo, path.join(links, 'to-repo'));
    fs.symlinkSync(path.join(repo, 'src', 'net'), path.join(links, 'to-net'));
    const watched = path.dirname(path.dirname(repo));
    assert.deepEqual(await journey(path.join(links, 'to-repo', 'src'), watched, [repo]), fromRoot);
    assert.deepEqual(await journey(path.join(links, 'to-net', 'http'), watched, [repo]), fromRoot);
    assert.deepEqual(fs.readdirSync(links).sort(), ['to-net', 'to-repo'], 'nothing written beside the links');
  });

  test('in a linked worktree: one index, the main worktree\'s, shared', async () => {
    const repo = copyNested(base, 'writes-worktree');
    const worktree = path.join(path.dirname(repo), 'feature');
    git(repo, 'worktree', 'add', '-q', '-b', 'feature', worktree);
    const got = await journey(path.join(worktree, 'src', 'net'), path.dirname(path.dirname(repo)), [repo, worktree]);
    assert.deepEqual(got, fromRoot);
    assert.ok(!fs.existsSync(path.join(worktree, '.ocrag')), 'no second index in the worktree');
    assert.ok(fs.existsSync(path.join(repo, '.ocrag', 'manifests', 'branch-feature.json')));
  });

  test("in a worktree of a bare repository named .git: the index lives inside it, never in the folder holding both", async () => {
    const holder = path.join(tempDir('writes-bare'), 'project');
    fs.mkdirSync(holder);
    git(holder, 'clone', '-q', '--bare', base, '.git');
    const worktree = path.join(holder, 'main');
    git(holder, 'worktree', 'add', '-q', worktree, 'main');
    const bare = path.join(holder, '.git');
    assert.deepEqual(await journey(path.join(worktree, 'src'), path.dirname(holder), [bare, worktree]), fromRoot);
    assert.ok(fs.existsSync(path.join(bare, 'ocrag', 'store.json')), 'inside the common git dir');
    assert.deepEqual(fs.readdirSync(holder).sort(), ['.git', 'main']);
  });

  test('in a plain folder and its subfolder: the folder\'s own index, the same answers from below', async () => {
    const folder = path.join(tempDir('writes-plain'), 'a', 'b', 'notes');
    for (const [file, body] of Object.entries(WRITES_FILES)) {
      fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
      fs.writeFileSync(path.join(folder, file), body);
    }
    const watched = path.dirname(path.dirname(folder));
    const top = await journey(folder, watched, [folder]);
    assert.deepEqual(top.map((hits) => hits[0].path), ['src/auth.py', 'src/net/http/retry.py']);
    const was = listing(watched, [path.join(folder, '.ocrag')]);
    assert.deepEqual(await answers(path.join(folder, 'src', 'net')), top);
    assert.deepEqual(listing(watched, [path.join(folder, '.ocrag')]), was, 'a search from below writes only into the index');
    assert.ok(fs.existsSync(path.join(folder, '.ocrag', 'own.json')));
  });
});
