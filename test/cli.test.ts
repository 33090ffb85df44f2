import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { CLI, git, makeFixtureRepo, runCli, runCommand, runJson, tempDir } from './helpers.js';
import type { SearchResult } from '../src/search/search.js';

/** What `ocrag search --json` prints: the service's own result type. */
type Result = SearchResult;
interface Summary {
  upToDate: boolean;
  files: number;
  skipped: Record<string, number>;
  newBlobs: number;
  chunksEmbedded: number;
  chunksTotal: number | null;
}

/** The lines a result claims, read from the committed file. */
function linesAt(repo: string, r: Result): string {
  const text = git(repo, 'show', `HEAD:${r.path}`);
  return text.split('\n').slice(r.startLine - 1, r.endLine).map((l) => l.replace(/\r$/, '')).join('\n');
}

describe('ocrag on the fixture repository (real git, real model, real LanceDB)', () => {
  let repo: string;
  let first: Summary;

  before(async () => {
    repo = makeFixtureRepo();
    first = await runJson<Summary>(['index'], repo);
  });

  test('indexes the text files and skips the rest with a reason', async () => {
    assert.equal(first.upToDate, false);
    assert.ok(first.chunksEmbedded > 10, `embedded ${first.chunksEmbedded}`);
    const status = await runJson<{ files: number; skipped: Record<string, { count: number; examples: string[] }> }>(['status'], repo);
    const skippedPath = (reason: string) => status.skipped[reason]?.examples ?? [];
    assert.deepEqual(skippedPath('binary').sort(), ['assets/disguised.ts', 'assets/logo.png']);
    assert.deepEqual(skippedPath('too large'), ['data/huge.txt']);
    assert.deepEqual(skippedPath('lfs pointer'), ['assets/model.bin.txt']);
    assert.deepEqual(skippedPath('submodule'), ['vendor/lib']);
    assert.deepEqual(skippedPath('symlink'), ['data/link-to-args.ts']);
    assert.deepEqual(skippedPath('secret'), ['.env']);
    assert.deepEqual(skippedPath('minified'), ['assets/app.bundle.txt']);
    const listed = await runJson<{ path: string; chunks: number }[]>(['list'], repo);
    const paths = listed.map((f) => f.path);
    for (const p of ['docs/notes é/über notes.md', 'docs/with space.txt', 'data/latin1.js', 'src/cli/args.ts', 'server/db.py']) assert.ok(paths.includes(p), `${p} is indexed`);
    assert.ok(listed.every((f) => f.chunks > 0));
  });

  test('a natural-language query finds the right function, with exact paths and lines', async () => {
    const results = await runJson<Result[]>(['search', 'parse command line arguments', '-k', '5'], repo);
    assert.equal(results[0].path, 'src/cli/args.ts');
    const parser = results.findIndex((r) => /function parseArgs/.test(r.text));
    const firstUnrelated = results.findIndex((r) => !/args/.test(r.path));
    assert.ok(parser >= 0 && parser < firstUnrelated, `the argv parser (#${parser}) ranks above unrelated code (#${firstUnrelated})`);
    for (const r of results) assert.equal(linesAt(repo, r), r.text, `${r.path}:${r.startLine}-${r.endLine} holds the chunk`);
    const checks: [string, string][] = [
      ['retry a database query when it is locked', 'server/db.py'],
      ['evict least recently used cache entry', 'pkg/cache/lru.go'],
      ['hash and verify user passwords', 'server/auth.py'],
      ['tokenize an arithmetic expression', 'crates/calc/src/lib.rs'],
      ['remove items from warehouse stock', 'java/src/main/java/com/example/Inventory.java'],
    ];
    for (const [query, expected] of checks) {
      const top = await runJson<Result[]>(['search', query, '-k', '3'], repo);
      assert.ok(top.some((r) => r.path === expected), `"${query}" → ${top.map((r) => r.path).join(', ')}`);
    }
  });

  test('text output shows path:lines, symbol and the code', async () => {
    const r = await runCli(['search', 'parse command line arguments', '-k', '1'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^src\/cli\/args\.ts:(\d+)-\d+ {2}\S.* \d\.\d{3}$/m, 'header: path:lines, symbol, score');
    assert.match(r.stdout, /^ *\d+ │ /m, 'numbered code lines');
    assert.doesNotMatch(r.stdout, /\x1b\[/, 'no colour when piped');
  });

  test('--path and --min-score filter results', async () => {
    const py = await runJson<Result[]>(['search', 'connection', '--path', 'server/**'], repo);
    assert.ok(py.length > 0 && py.every((r) => r.path.startsWith('server/')));
    const none = await runJson<Result[]>(['search', 'connection', '--min-score', '0.99'], repo);
    assert.equal(none.length, 0);
  });

  test('an unchanged re-index embeds nothing', async () => {
    const again = await runJson<Summary>(['index'], repo);
    assert.equal(again.upToDate, true);
    assert.equal(again.chunksEmbedded, 0);
  });

  test('a rename without content change embeds 0 chunks and search shows the new path only', async () => {
    git(repo, 'mv', 'src/util/color.ts', 'src/util/colour.ts');
    git(repo, 'commit', '-q', '-m', 'rename');
    const after = await runJson<Summary>(['index'], repo);
    assert.equal(after.upToDate, false);
    assert.equal(after.chunksEmbedded, 0);
    assert.equal(after.newBlobs, 0);
    const results = await runJson<Result[]>(['search', 'convert a hex colour to red green blue', '-k', '10'], repo);
    assert.ok(results.some((r) => r.path === 'src/util/colour.ts'));
    assert.ok(!results.some((r) => r.path === 'src/util/color.ts'));
  });

  test('search brings a stale index up to date first and says so on stderr', async () => {
    fs.writeFileSync(path.join(repo, 'src/util/slug.ts'), '/** Turns a title into a URL slug. */\nexport function slugify(title: string): string {\n  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-");\n}\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'slug');
    const r = await runCli(['search', 'make a url slug from a title', '--json', '-k', '3'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /updating/);
    assert.equal((JSON.parse(r.stdout) as Result[])[0].path, 'src/util/slug.ts');
  });

  test('git ocrag search works through git', async () => {
    const bin = tempDir('bin');
    fs.symlinkSync(CLI, path.join(bin, 'git-ocrag'));
    const r = await runCommand('git', ['ocrag', 'search', 'parse command line arguments', '--json', '-k', '1'], repo, { PATH: `${bin}${path.delimiter}${process.env.PATH}` });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as Result[])[0].path, 'src/cli/args.ts');
  });

  test('works from a subfolder of the repository', async () => {
    const results = await runJson<Result[]>(['search', 'parse command line arguments', '-k', '1'], path.join(repo, 'server'));
    assert.equal(results[0].path, 'src/cli/args.ts');
  });

  test('.ocrag is kept out of git status through .git/info/exclude', () => {
    assert.equal(git(repo, 'status', '--porcelain'), '');
    assert.match(fs.readFileSync(path.join(repo, '.git', 'info', 'exclude'), 'utf8'), /\/\.ocrag\//);
  });
});

describe('misuse gets one clear line and a documented exit code', () => {
  let repo: string;
  before(() => {
    repo = makeFixtureRepo();
  });

  const cases: [string, string[], number, RegExp][] = [
    ['unknown option', ['search', 'x', '--bogus'], 2, /unknown option '--bogus'/],
    ['empty query', ['search', '  '], 2, /empty query/],
    ['-k 0', ['search', 'x', '-k', '0'], 2, /-k\/--top-k must be a whole number from 1/],
    ['-k not a number', ['search', 'x', '-k', 'ten'], 2, /-k\/--top-k must be a whole number/],
    ['bad --min-score', ['search', 'x', '--min-score', '3'], 2, /--min-score must be a number from -1 to 1/],
    ['unknown command', ['serch', 'x'], 2, /unknown command 'serch'/],
  ];
  for (const [name, args, code, message] of cases) {
    test(name, async () => {
      const r = await runCli(args, repo);
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length <= 2, true, r.stderr);
      assert.equal(r.stdout, '');
    });
  }

  test('outside a git repository', async () => {
    const r = await runCli(['search', 'x'], tempDir('nogit'));
    assert.equal(r.code, 3);
    assert.match(r.stderr, /^ocrag: not inside a git repository/);
  });

  test('an empty repository (no commits)', async () => {
    const dir = tempDir('empty');
    execFileSync('git', ['init', '-q', dir]);
    for (const args of [['index'], ['search', 'x']]) {
      const r = await runCli(args, dir);
      assert.equal(r.code, 3);
      assert.match(r.stderr, /no commits yet/);
    }
  });

  test('a bare repository', async () => {
    const dir = tempDir('bare');
    execFileSync('git', ['init', '-q', '--bare', dir]);
    const r = await runCli(['index'], dir);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /bare repository/);
  });

  test('a broken config file', async () => {
    fs.mkdirSync(path.join(repo, '.ocrag'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.ocrag', 'config.json'), '{ not json');
    const r = await runCli(['status'], repo);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /invalid config .*config\.json/);
    fs.rmSync(path.join(repo, '.ocrag', 'config.json'));
  });

  test('another model folder works through the same path, and the index refuses to mix models', async () => {
    await runJson(['index'], repo);
    const other = path.join(tempDir('model'), 'my-model');
    const { path: defaultFolder } = await runJson<{ path: string }>(['model', 'info'], repo);
    fs.cpSync(defaultFolder, other, { recursive: true });
    fs.rmSync(path.join(other, 'ocrag-model.json'), { force: true });
    const refused = await runCli(['search', 'parse arguments', '--model', other], repo);
    assert.equal(refused.code, 4, refused.stderr);
    assert.match(refused.stderr, /built with model "ocrag\/use-static-v2".*ocrag index --rebuild/);
    const rebuilt = await runJson<{ chunksEmbedded: number }>(['index', '--rebuild', '--model', other], repo);
    assert.ok(rebuilt.chunksEmbedded > 0);
    const status = await runJson<{ model: { id: string } }>(['status', '--model', other], repo);
    assert.match(status.model.id, /^my-model@[0-9a-f]{12}$/);
    const results = await runJson<Result[]>(['search', 'parse command line arguments', '-k', '1', '--model', other], repo);
    assert.equal(results[0].path, 'src/cli/args.ts');
  });

  test('--help teaches with examples and exit codes', async () => {
    const r = await runCli(['--help'], repo);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Examples:/);
    assert.match(r.stdout, /Exit codes:/);
  });
});
