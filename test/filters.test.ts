// Filters that cannot match say so, and a pasted stack trace up to the query limit is read: `ocrag search` as a
// user runs it, on the fixture repository (real git, the real model).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { makeFixtureRepo, runCli, runJson } from './helpers.js';
import { fixtureStackTrace } from './support/stack-trace.js';
import { MAX_QUERY_CHARS } from '../src/search/query-limit.js';

describe('ocrag search: filters that cannot match, and long queries', () => {
  let repo: string;

  before(async () => {
    repo = makeFixtureRepo();
    await runJson(['index'], repo);
  });

  test('a path glob no file matches, or that is no glob, a language no file is in or none ocrag knows, an unknown source: each says so in one line', async () => {
    const cases: [string[], RegExp][] = [
      [['--path', 'nonexistent/**'], /^ocrag: no file matches the path glob "nonexistent\/\*\*" \(of \d+ files searched\): .*the top folders here: .*src/],
      [['--path', '['], /^ocrag: invalid path glob "\[": missing closing "\]"/],
      [['--path', 'src/**/*.{ts'], /^ocrag: invalid path glob "src\/\*\*\/\*\.\{ts": missing closing "\}"/],
      [['--language', 'klingon'], /^ocrag: unknown language "klingon": name one like typescript/],
      [['--language', 'kotlin'], /^ocrag: no kotlin file among the \d+ files: the languages here are .*typescript \(\d+\)/],
      [['--language', 'python', '--path', 'src/**'], /^ocrag: no python file among the 3 files matching "src\/\*\*": the languages here are typescript \(3\)$/],
      [['--source', 'nope'], /^ocrag: no source "nope" to search: none was added/],
    ];
    for (const [flags, message] of cases) {
      const r = await runCli(['search', 'parse command line arguments', ...flags], repo);
      assert.equal(r.code, 2, `${flags.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr.trim(), message, flags.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /no good match/);
    }
    // The filters that do match answer as before.
    const py = await runJson<{ path: string }[]>(['search', 'retry a database query when it is locked', '--language', 'py', '--path', 'server/**', '-k', '2'], repo);
    assert.equal(py[0]?.path, 'server/db.py');
  });

  test(`a ${MAX_QUERY_CHARS.toLocaleString('en-US')}-character stack trace is read and finds its innermost own frame; one character more is refused`, async () => {
    const trace = fixtureStackTrace(MAX_QUERY_CHARS);
    assert.equal(trace.length, MAX_QUERY_CHARS);
    const started = performance.now();
    const results = await runJson<{ path: string; symbol: string }[]>(['search', trace, '-k', '3'], repo);
    const ms = performance.now() - started;
    assert.equal(results[0]?.path, 'src/http/router.ts', JSON.stringify(results.map((r) => r.path)));
    assert.match(results[0]!.symbol, /handle/);
    assert.ok(ms < 20_000, `${Math.round(ms)} ms`);
    const md = await runCli(['search', trace, '-k', '1', '--format', 'markdown'], repo);
    assert.match(md.stdout, /^1 result for `TypeError: Cannot read properties of undefined \(reading 'pathname'\)… \(10,000 characters\)`/, 'the answer names the trace by its first line, not whole');
    const over = await runCli(['search', `${trace}x`], repo);
    assert.equal(over.code, 2);
    assert.match(over.stderr, /^ocrag: the query is 10,001 characters; at most 10,000 are read/);
  });
});
