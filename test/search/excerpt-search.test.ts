import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CodeIndex } from '../../src/service/code-index.js';
import { committedRepo, runCli, runJson, tempDir, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

/** A repository with one 70-line function (a line about the retry budget in its middle) and one small function. */
function repoWithBigFunction(): { repo: string; source: string[] } {
  const repo = path.join(tempDir('excerpt'), 'excerpt');
  const body = Array.from({ length: 68 }, (_, i) => `  total += weights[${i}] * values[${i}];`);
  body[40] = '  const retryBudget = exponentialBackoffDelay(attempt, jitterMillis);';
  const source = ['export function scheduleWork(values: number[], weights: number[], attempt: number, jitterMillis: number): number {', '  let total = 0;', ...body.slice(1), '  return total;', '}'];
  const small = 'export function clampPercent(value: number): number {\n  return Math.min(100, Math.max(0, value));\n}\n';
  committedRepo(repo, { 'src/schedule.ts': source.join('\n') + '\n', 'src/small.ts': small }, 'two functions');
  return { repo, source };
}

describe('search results trimmed to what answers', () => {
  let index: CodeIndex;
  let repo: string;
  let source: string[];
  before(async () => {
    ({ repo, source } = repoWithBigFunction());
    index = await CodeIndex.open(repo);
    await index.index();
  });
  after(() => index.close());

  test('a big function shows its relevant part with its line numbers; a small one is whole', async () => {
    const [big] = await index.search('exponential backoff delay with jitter', { k: 5, update: false, committedOnly: true });
    assert.equal(big.path, 'src/schedule.ts');
    assert.equal(big.startLine, 1, 'the result is still the whole chunk');
    assert.equal(big.endLine, source.length);
    assert.ok(big.shown, 'cut');
    const at = source.findIndex((l) => l.includes('exponentialBackoffDelay')) + 1;
    assert.ok(big.shown.some((s) => s.startLine <= at && at <= s.endLine), `line ${at} shown: ${JSON.stringify(big.shown)}`);
    const text = big.text.split('\n').filter((l) => !l.startsWith('⋮ '));
    assert.deepEqual(text, big.shown.flatMap((s) => source.slice(s.startLine - 1, s.endLine)));
    const small = (await index.search('clamp a percentage', { k: 5, update: false, committedOnly: true })).find((r) => r.path === 'src/small.ts');
    assert.ok(small);
    assert.equal(small.shown, undefined);
    assert.equal(small.text, fs.readFileSync(path.join(repo, 'src/small.ts'), 'utf8').trimEnd());
    const whole = await index.search('exponential backoff delay with jitter', { k: 1, update: false, committedOnly: true, whole: true });
    assert.equal(whole[0].text.split('\n').length, source.length);
  });

  test('the CLI numbers the shown lines by the file and says what it cut; --json has shown; --whole shows all', async () => {
    const query = ['exponential', 'backoff', 'delay', 'with', 'jitter'];
    const out = await runCli(['search', ...query, '-k', '1', '--format', 'markdown'], repo);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /shows 1-1, \d+-\d+/);
    assert.match(out.stdout, /⋮ \d+ lines cut \(2-\d+\)/);
    const text = await runCli(['search', ...query, '-k', '1'], repo);
    const numbered = text.stdout.split('\n').filter((l) => /^\s*\d+ │/.test(l));
    for (const l of numbered) {
      const [, n, code] = /^\s*(\d+) │ (.*)$/.exec(l)!;
      assert.equal(code, source[Number(n) - 1], `line ${n}`);
    }
    const [json] = await runJson<{ shown?: { startLine: number; endLine: number }[]; text: string }[]>(['search', ...query, '-k', '1', '--json'], repo);
    assert.ok(json.shown && json.shown.length >= 1);
    const [whole] = await runJson<{ shown?: unknown; text: string }[]>(['search', ...query, '-k', '1', '--json', '--whole'], repo);
    assert.equal(whole.shown, undefined);
    assert.equal(whole.text.split('\n').length, source.length);
  });
});
