// Token budgets never answer nothing: a budget smaller than the best result returns that result cut to its location
// and first lines, every format ends by saying what was left out, and Chinese is counted as LLM tokenizers count it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { estimateTokens, trimToTokenBudget } from '../src/render/budget.js';
import { formatJson } from '../src/render/json.js';
import { formatMarkdown } from '../src/render/markdown.js';
import { formatText, PLAIN } from '../src/render/text.js';
import { formatXml } from '../src/render/xml.js';
import type { SearchReport } from '../src/render/report.js';
import type { SearchResult } from '../src/search/search.js';
import { committedRepo, makeFixtureRepo, runCli, runJson, tempDir } from './helpers.js';

function result(text: string, extra: Partial<SearchResult> = {}): SearchResult {
  return { path: 'src/parse.ts', startLine: 10, endLine: 10 + text.split('\n').length - 1, language: 'typescript', symbol: 'function parseAll', score: 0.8, text, ...extra };
}

const body = (n: number) => Array.from({ length: n }, (_, i) => `  const step${i} = compute(${i}, input, options);`).join('\n');
const CJK = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/gu;
const cjkCount = (text: string) => (text.match(CJK) ?? []).length;

describe('token counts and budgets', () => {
  test('counts a token per 3.4 characters of code and one per Chinese character', () => {
    assert.equal(estimateTokens('a'.repeat(340)), 100);
    assert.equal(estimateTokens('解析命令行参数'.repeat(10)), 70);
    assert.equal(estimateTokens('，。「」'), 4, 'CJK punctuation and full-width forms too');
    assert.equal(estimateTokens(`${'x'.repeat(34)}连接池`), 13);
    assert.equal(estimateTokens('𠀀𠀁'), 2, 'characters outside the BMP count once, not per UTF-16 unit');
  });

  test('drops whole results from the end while one fits, and says so last', () => {
    const results = [result('a'.repeat(300)), result('b'.repeat(300)), result('c'.repeat(4000))];
    const trimmed = trimToTokenBudget({ query: 'q', latencyMs: 1, results }, 300, formatMarkdown);
    assert.deepEqual([trimmed.report.results.length, trimmed.dropped, trimmed.cut], [2, 1, 0]);
    assert.deepEqual(trimmed.report.results.map((r) => r.text), [results[0]!.text, results[1]!.text], 'kept results are whole');
    assert.ok(trimmed.tokens <= 300, `${trimmed.tokens} tokens`);
    assert.match(formatMarkdown(trimmed.report), /\n1 lower-ranked result left out to fit 300 tokens\.\n$/);
    const all = trimToTokenBudget({ query: 'q', latencyMs: 1, results: results.slice(0, 1) }, 300, formatMarkdown);
    assert.equal(all.report.leftOut, undefined, 'nothing left out: nothing said');
  });

  test('a budget smaller than the best result returns it cut to its location and first lines, in every format', () => {
    const best = result(`export function parseAll(input: string, options: Options): Parsed {\n${body(58)}\n}`);
    const report: SearchReport = { query: 'parse all', latencyMs: 1, results: [best, result('return 1;', { path: 'src/other.ts' })] };
    for (const [name, render] of [['markdown', formatMarkdown], ['text', (r: SearchReport) => formatText(r, PLAIN)], ['xml', formatXml], ['json', formatJson]] as const) {
      const { report: out, dropped, cut, tokens } = trimToTokenBudget(report, 150, render);
      assert.deepEqual([out.results.length, dropped, cut], [1, 1, 1], name);
      const [shown] = out.results;
      assert.deepEqual([shown!.path, shown!.startLine, shown!.endLine, shown!.symbol], [best.path, 10, 69, best.symbol], `${name}: the location is the whole chunk's`);
      assert.ok(shown!.text.startsWith('export function parseAll('), `${name}: the signature first`);
      const n = shown!.shown![0]!.endLine - 10 + 1;
      assert.ok(n >= 1 && shown!.shown!.length === 1, `${name}: ${JSON.stringify(shown!.shown)}`);
      assert.equal(shown!.text.split('\n').at(-1), `⋮ ${60 - n} lines cut (${10 + n}-69)`, name);
      assert.ok(tokens <= 150, `${name}: ${tokens} tokens`);
    }
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(formatXml(trimToTokenBudget(report, 150, formatXml).report));
    assert.deepEqual(xml.results.leftOut, { dropped: '1', cut: '1', maxTokens: '150' });
    const json = JSON.parse(formatJson(trimToTokenBudget(report, 150, formatJson).report)) as Record<string, unknown>[];
    assert.deepEqual(json.at(-1), { leftOut: { dropped: 1, cut: 1, maxTokens: 150 } });
    assert.match(formatMarkdown(trimToTokenBudget(report, 150, formatMarkdown).report), /\nThe first result cut and 1 more left out to fit 150 tokens\.\n$/);
  });

  test('a doc comment that leaves no room for the definition line is cut instead of it; a line too long leaves the location', () => {
    const doc = Array.from({ length: 12 }, (_, i) => ` * Explains step ${i} of parsing every input the caller gives in detail.`);
    const text = ['/**', ...doc, ' */', 'export function parseAll(input: string): Parsed {', body(30), '}'].join('\n');
    const { report } = trimToTokenBudget({ query: 'q', latencyMs: 1, results: [result(text)] }, 100, formatMarkdown);
    const lines = report.results[0]!.text.split('\n');
    assert.deepEqual([lines[0], lines[1]], ['⋮ 14 lines cut (10-23)', 'export function parseAll(input: string): Parsed {']);
    assert.equal(report.results[0]!.shown![0]!.startLine, 24);
    const minified = trimToTokenBudget({ query: 'q', latencyMs: 1, results: [result('x'.repeat(5000), { language: 'javascript', symbol: '' })] }, 100, formatMarkdown).report;
    assert.deepEqual([minified.results[0]!.text, minified.results[0]!.shown], ['⋮ 1 line cut (10-10)', []]);
    assert.match(formatMarkdown(minified), /### `src\/parse\.ts:10-10` · 0\.800 · location only/);
  });

  test('Chinese text is budgeted at a token a character: cut where characters / 4 would have kept it whole', () => {
    const prose = '连接池的大小由环境变量控制，默认是十个连接。连接空闲超过三十秒会被自动关闭，下一次查询时重新建立。'.repeat(6);
    const doc = result(`## 数据库连接池\n\n${prose.match(/.{1,40}/gu)!.join('\n')}`, { path: 'docs/运维手册.md', language: 'markdown', symbol: '数据库连接池' });
    assert.ok(formatMarkdown({ query: '连接池', latencyMs: 1, results: [doc] }).length / 4 < 200, 'characters / 4 says the whole result fits 200');
    const { report, tokens } = trimToTokenBudget({ query: '连接池', latencyMs: 1, results: [doc] }, 200, formatMarkdown);
    assert.equal(report.leftOut?.cut, 1);
    const out = formatMarkdown(report);
    assert.ok(cjkCount(out) < 200 && tokens <= 200, `${cjkCount(out)} Chinese characters, ${tokens} tokens`);
  });
});

describe('ocrag search --max-tokens on a repository', () => {
  let repo: string;
  const args = ['search', 'parse command line arguments', '-k', '4', '--max-tokens', '100'];

  before(async () => {
    repo = makeFixtureRepo();
    await runJson(['index'], repo);
  });

  test('a budget of 100 answers exactly one result, cut, naming its path and lines; each format says what was left out', async () => {
    const md = await runCli([...args, '--format', 'markdown'], repo);
    assert.equal(md.code, 0, md.stderr);
    assert.equal(md.stdout.match(/^### /gm)?.length, 1, md.stdout);
    const [, start, end] = md.stdout.match(/^### `src\/cli\/args\.ts:(\d+)-(\d+)` · `function parseArgs`/m) ?? [];
    assert.ok(start && end, md.stdout);
    assert.match(md.stdout, /export function parseArgs\(argv: string\[\]\)/, 'its signature');
    assert.match(md.stdout, new RegExp(`⋮ \\d+ lines cut \\(\\d+-${end}\\)`));
    assert.match(md.stdout, /\nThe first result cut and 3 more left out to fit 100 tokens\.\n$/);
    assert.ok(estimateTokens(md.stdout) <= 100, `${estimateTokens(md.stdout)} tokens`);
    assert.match(md.stderr, /kept 1 of 4 results, the best cut to its first lines, to fit --max-tokens 100/);

    const xml = await runCli([...args, '--format', 'xml'], repo);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml.stdout);
    assert.equal(doc.results.count, '1');
    assert.deepEqual([doc.results.result.path, doc.results.result.startLine, doc.results.result.endLine], ['src/cli/args.ts', start, end]);
    assert.deepEqual(doc.results.leftOut, { dropped: '3', cut: '1', maxTokens: '100' });

    const json = JSON.parse((await runCli([...args, '--format', 'json'], repo)).stdout) as Record<string, unknown>[];
    assert.equal(json.length, 2);
    assert.deepEqual([json[0]!.path, json[0]!.startLine, json[0]!.endLine], ['src/cli/args.ts', Number(start), Number(end)]);
    assert.deepEqual(json[1], { leftOut: { dropped: 3, cut: 1, maxTokens: 100 } });

    const text = await runCli(args, repo);
    assert.match(text.stdout, /^src\/cli\/args\.ts:\d+-\d+ {2}function parseArgs/);
    assert.match(text.stdout, /the first result cut and 3 more left out to fit 100 tokens\n/);
    assert.equal(text.stderr, '', 'text says it on stdout only');
  });

  test('a Chinese document is cut where its characters, not their number / 4, exceed the budget', async () => {
    const sentence = '连接池的大小由环境变量控制，默认是十个连接。连接空闲超过三十秒会被自动关闭，下一次查询时重新建立。';
    const zh = committedRepo(path.join(tempDir('zh-budget'), 'zh'), { 'docs/连接池.md': `# 数据库连接池\n\n${Array.from({ length: 8 }, () => sentence).join('\n\n')}\n` }, 'a Chinese manual');
    await runJson(['index'], zh);
    const r = await runCli(['search', '数据库连接池的大小', '-k', '1', '--format', 'markdown', '--max-tokens', '200'], zh);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /### `docs\/连接池\.md:\d+-\d+`/);
    assert.match(r.stdout, /连接池的大小/, 'the document starts');
    assert.match(r.stdout, /The result cut to fit 200 tokens\./);
    assert.ok(cjkCount(r.stdout) < 200, `${cjkCount(r.stdout)} Chinese characters in a budget of 200 tokens`);
  });
});
