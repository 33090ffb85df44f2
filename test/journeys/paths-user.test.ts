import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI, cloneRepo, git, GIT_IDENTITY, runCli, tempDir, TEST_CACHE } from '../helpers.js';
import { gitLsFiles, latin1, openResult, rawJson, runRaw, under, unquoteGit, writeFiles } from '../security/paths-helpers.js';

/**
 * A user clones a repository whose file names are bytes (latin-1 names from an old tool, a composed and a
 * decomposed "é", a name holding U+FFFD itself) and uses the built CLI on it as they would: index, search, list,
 * status, dry run, export to a teammate who imports, a source folder with such names, and a shell left in a
 * folder whose own name is not UTF-8. Every answer names the exact file; nothing changes outside `.ocrag/`.
 */

interface Result {
  path: string;
  quotedPath?: string;
  absolutePath?: string;
  quotedAbsolutePath?: string;
  text: string;
}

const py = (name: string, doc: string) => `def ${name}(value):\n    """${doc}"""\n    return value\n`;
const NFC = 'r\u00e9sum\u00e9.py';
const NFD = 're\u0301sume\u0301.py';

let origin: string;
let clone: string;
const made: string[] = [];

function tracked(repo: string): string {
  return execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repo, encoding: 'latin1' });
}

/** The built CLI started by a shell that `cd`s into `folder` (a name Node cannot give as a working directory). */
function runFrom(folder: Buffer, args: string[]): { code: number; stderr: string } {
  const escaped = [...folder].map((b) => (b >= 0x20 && b < 0x7f && !`'\\%`.includes(String.fromCharCode(b)) ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
  const r = spawnSync('bash', ['-c', `cd "$(printf '${escaped}')" && exec "$@"`, 'bash', process.execPath, CLI, ...args], { env: { ...process.env, OCRAG_CACHE: TEST_CACHE, ...GIT_IDENTITY } });
  return { code: r.status ?? -1, stderr: r.stderr.toString('utf8') };
}

function top(root: string, query: string, extra: string[] = []): Result {
  const [first] = rawJson<Result[]>(['search', query, '-k', '1', ...extra], root);
  assert.ok(first, `a result for "${query}"`);
  return first;
}

before(async () => {
  origin = path.join(tempDir('paths-origin'), 'origin');
  made.push(path.dirname(origin));
  fs.mkdirSync(origin);
  writeFiles(origin, [
    [latin1('legacy/caf\xe9.py'), py('brew_espresso', 'Grinds beans and pulls an espresso shot.')],
    [latin1('legacy/caf\xe8.py'), py('steam_milk', 'Steams milk into a velvety microfoam.')],
    [Buffer.from('legacy/caf\uFFFD.py'), py('pour_over', 'Pours hot water over ground coffee slowly.')],
    [Buffer.from(NFC), py('composed_resume', 'Formats the curriculum vitae in composed form.')],
    [Buffer.from(NFD), py('decomposed_resume', 'Prints the job application letter in decomposed form.')],
  ]);
  git(origin, 'init', '-q', '-b', 'main');
  git(origin, 'add', '-A');
  git(origin, 'commit', '-qm', 'names from everywhere');
  clone = cloneRepo(origin, 'paths-clone');
  made.push(path.dirname(clone));
  const indexed = await runCli(['index'], clone);
  assert.equal(indexed.code, 0, indexed.stderr);
});

after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a user on a repository whose names are bytes', () => {
  test('search, list, status and a dry run name each file exactly, as git does', () => {
    const espresso = top(clone, 'pulls an espresso shot');
    const milk = top(clone, 'steams milk into microfoam');
    const pour = top(clone, 'pours hot water over ground coffee');
    assert.deepEqual([espresso.quotedPath, milk.quotedPath, pour.quotedPath], ['"legacy/caf\\351.py"', '"legacy/caf\\350.py"', undefined]);
    // The name that holds U+FFFD itself is exact as it is shown: no quoted form, and it opens by its path.
    assert.equal(pour.path, 'legacy/caf\uFFFD.py');
    for (const [r, name] of [[espresso, 'brew_espresso'], [milk, 'steam_milk'], [pour, 'pour_over']] as const) assert.match(openResult(clone, r), new RegExp(`def ${name}`));
    const listed = rawJson<{ path: string; quotedPath?: string }[]>(['list'], clone).map((f) => f.quotedPath ?? f.path);
    assert.equal(listed.length, 5);
    // The latin-1 names as git ls-files quotes them; the one holding U+FFFD as it is (git quotes its UTF-8 bytes).
    for (const name of ['"legacy/caf\\351.py"', '"legacy/caf\\350.py"']) assert.ok(listed.includes(name) && gitLsFiles(clone).includes(name), name);
    assert.ok(listed.includes('legacy/caf\uFFFD.py'));
    const text = runRaw(['list'], clone).stdout.toString('utf8');
    assert.ok(text.includes('"legacy/caf\\351.py"') && text.includes('"legacy/caf\\350.py"'), text);
    assert.equal(rawJson<{ files: number }>(['status'], clone).files, 5);
    const plan = rawJson<{ files: number }>(['index', '--dry-run'], clone);
    assert.equal(plan.files, 5);
    assert.equal(tracked(clone), '', 'nothing changed in the work tree');
  });

  test('a composed and a decomposed "é" are two names, each exact and unquoted', () => {
    const composed = top(clone, 'curriculum vitae in composed form');
    const decomposed = top(clone, 'job application letter in decomposed form');
    assert.deepEqual([composed.path, decomposed.path, composed.quotedPath, decomposed.quotedPath], [NFC, NFD, undefined, undefined]);
    assert.match(openResult(clone, decomposed), /def decomposed_resume/);
  });

  test('an artifact carries the exact names to a teammate who imports it', async () => {
    const artifact = path.join(path.dirname(clone), 'index.tar');
    const exported = await runCli(['export', '--out', artifact], clone);
    assert.equal(exported.code, 0, exported.stderr);
    const teammate = cloneRepo(origin, 'paths-teammate');
    made.push(path.dirname(teammate));
    const imported = await runCli(['import', artifact], teammate);
    assert.equal(imported.code, 0, imported.stderr);
    const r = top(teammate, 'steams milk into microfoam', ['--no-update']);
    assert.equal(r.quotedPath, '"legacy/caf\\350.py"');
    assert.match(openResult(teammate, r), /def steam_milk/);
    assert.equal(tracked(teammate), '');
  });

  test('a source folder with such names gives an absolute path that opens', async () => {
    const docs = path.join(tempDir('paths-docs'), 'notes');
    made.push(path.dirname(docs));
    fs.mkdirSync(docs);
    writeFiles(docs, [
      [latin1('na\xefve.md'), '# Tasting notes\n\nThe naive palate finds bergamot and dark chocolate.\n'],
      [latin1('na\xeeve.md'), '# Roast log\n\nThe second crack came at minute eleven.\n'],
    ]);
    // Named on the command line, such a file arrives as U+FFFD (Node reads arguments as UTF-8): the way out is said.
    const byName = await runCli(['add', path.join(docs, 'na\uFFFDve.md')], clone);
    assert.equal(byName.code, 2, byName.stderr);
    assert.match(byName.stderr, /not valid UTF-8, it cannot be given on the command line: add the folder holding it/);
    const added = await runCli(['add', docs, '--name', 'notes'], clone);
    assert.equal(added.code, 0, added.stderr);
    const r = top(clone, 'bergamot and dark chocolate');
    assert.equal(r.quotedPath, '"notes:na\\357ve.md"');
    assert.equal(r.path, 'notes:na\uFFFDve.md');
    assert.deepEqual(unquoteGit(r.quotedAbsolutePath!), under(docs, latin1('na\xefve.md')));
    assert.match(fs.readFileSync(unquoteGit(r.quotedAbsolutePath!), 'utf8'), /bergamot/);
    assert.equal(top(clone, 'second crack at minute eleven').quotedPath, '"notes:na\\356ve.md"');
    const removed = await runCli(['remove', 'notes'], clone);
    assert.equal(removed.code, 0, removed.stderr);
  });

  test('a shell left in a folder whose name is not UTF-8 gets the way out, and nothing is written', () => {
    const inside = under(clone, latin1('legacy/archiv\xe9'));
    fs.mkdirSync(inside);
    try {
      // Node cannot start a process in such a folder: a shell can, as a user's does.
      const r = runFrom(inside, ['search', 'espresso']);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /not valid UTF-8 .*-C <repository root>/);
      assert.deepEqual(fs.readdirSync(inside), [], 'nothing written where the user stood');
    } finally {
      fs.rmdirSync(inside);
    }
    assert.equal(tracked(clone), '');
  });
});
