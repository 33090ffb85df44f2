import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { estimateTokens } from '../src/render/budget.js';
import { formatMarkdown, inlineCode } from '../src/render/markdown.js';
import { formatXml } from '../src/render/xml.js';
import type { SearchReport } from '../src/render/report.js';
import type { SearchResult } from '../src/search/search.js';
import { git, makeFixtureRepo, runCli, runJson } from './helpers.js';

const HOSTILE = [
  'const end = "]]>";',
  '// </result></results><result path="evil">',
  'const html = "<script>alert(\'x\')</script> & &amp; \'quotes\' \\"double\\"";',
  'const nested = "]]]]>]]>";',
  'const crlf = "a\r\nb";\r',
  '\tindented with a tab, trailing spaces   ',
  '',
].join('\n');

function result(text: string, extra: Partial<SearchResult> = {}): SearchResult {
  return { path: 'src/a "b" <c>.ts', startLine: 3, endLine: 3 + text.split('\n').length - 1, language: 'typescript', symbol: 'class A<T> > method b', score: 0.5, text, ...extra };
}

/** The code of each <result>, read the way any XML consumer reads it: text and CDATA pieces in document order. */
function parseXml(xml: string): { root: Record<string, string>; results: { attrs: Record<string, string>; code: string }[] } {
  assert.equal(XMLValidator.validate(xml), true, 'well-formed XML');
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: true, cdataPropName: '#cdata', trimValues: false, parseTagValue: false, parseAttributeValue: false, htmlEntities: true });
  type Node = Record<string, Node[]> & { ':@'?: Record<string, string>; '#text'?: string };
  const doc = parser.parse(xml) as Node[];
  const root = doc.find((n) => 'results' in n)!;
  const textOf = (nodes: Node[]): string => nodes.map((n) => (n['#text'] !== undefined ? String(n['#text']) : n['#cdata'] ? textOf(n['#cdata']) : '')).join('');
  const results = (root.results as Node[]).filter((n) => 'result' in n).map((n) => {
    const attrs = n[':@'] ?? {};
    const code = textOf(n.result as Node[]);
    return { attrs, code: attrs.encoding === 'base64' ? Buffer.from(code, 'base64').toString('utf8') : code };
  });
  return { root: root[':@'] ?? {}, results };
}

describe('output formats', () => {
  test('XML: hostile code parses with a real parser and round-trips exactly; attributes are escaped', () => {
    const report: SearchReport = { query: 'find "]]>" & <script>\nnow', latencyMs: 12.4, results: [result(HOSTILE), result('plain();', { path: 'b.ts', symbol: '' })] };
    const xml = formatXml(report);
    const { root, results } = parseXml(xml);
    assert.equal(root.query, report.query);
    assert.equal(root.latencyMs, '12');
    assert.equal(results.length, 2, 'no injected <result> elements');
    assert.equal(results[0].code, HOSTILE);
    assert.equal(results[0].attrs.path, 'src/a "b" <c>.ts');
    assert.equal(results[0].attrs.symbol, 'class A<T> > method b');
    assert.deepEqual([results[0].attrs.startLine, results[0].attrs.endLine, results[0].attrs.score], ['3', String(report.results[0].endLine), '0.5000']);
    assert.equal(results[1].code, 'plain();');
  });

  test('XML: characters XML cannot carry at all are sent as base64, still exact', () => {
    const code = 'bell \x07, escape \x1b[0m, nul \x00, lone surrogate \ud800';
    const { results } = parseXml(formatXml({ query: 'q', latencyMs: 1, results: [result(code)] }));
    assert.equal(results[0].attrs.encoding, 'base64');
    assert.equal(results[0].code, Buffer.from(code, 'utf8').toString('utf8'));
  });

  test('Markdown: one heading and one fence per result, the fence longer than any backtick run in the code', () => {
    const code = 'const md = `x`;\n```js\nnested fence\n```\nconst five = "`````";';
    const md = formatMarkdown({ query: 'q', latencyMs: 3, results: [result(code, { path: 'docs/a.md', startLine: 10, endLine: 14 })] });
    assert.match(md, /^### `docs\/a\.md:10-14` · `class A<T> > method b` · 0\.500$/m);
    const fence = '`'.repeat(6);
    assert.ok(md.includes(`${fence}typescript\n${code}\n${fence}\n`), md);
    assert.equal(inlineCode('a`b'), '``a`b``');
    assert.equal(inlineCode('`edge`'), '`` `edge` ``');
  });
});

describe('ocrag search --format on a repository', () => {
  let repo: string;
  const file = 'src/hostile.ts';

  before(async () => {
    repo = makeFixtureRepo();
    fs.writeFileSync(path.join(repo, file), `export function renderHostileMarkup(): string {\n${HOSTILE.split('\n').map((l) => `  ${l}`).join('\n')}\n  return end + html + nested;\n}\n`);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'hostile');
    await runJson(['index'], repo);
  });

  test('--format xml: the chunk with ]]>, </result> and <script> parses and holds exactly the file lines', async () => {
    const r = await runCli(['search', 'renderHostileMarkup', '-k', '3', '--format', 'xml'], repo);
    assert.equal(r.code, 0, r.stderr);
    const { root, results } = parseXml(r.stdout);
    assert.equal(root.query, 'renderHostileMarkup');
    assert.ok(Number(root.latencyMs) >= 0);
    const hostile = results.find((x) => x.attrs.path === file);
    assert.ok(hostile, `results: ${results.map((x) => x.attrs.path).join(', ')}`);
    // The chunker reads lines without their CR (CRLF round-trips are covered above, on the formatter itself).
    const lines = fs.readFileSync(path.join(repo, file), 'utf8').split('\n').map((l) => l.replace(/\r$/, ''));
    assert.equal(hostile.code, lines.slice(Number(hostile.attrs.startLine) - 1, Number(hostile.attrs.endLine)).join('\n'));
    assert.ok(hostile.code.includes(']]>') && hostile.code.includes('</result>') && hostile.code.includes('<script>'));
  });

  test('--json is --format json; markdown and --max-tokens', async () => {
    const args = ['search', 'parse command line arguments', '-k', '4'];
    const json = await runCli([...args, '--json'], repo);
    const format = await runCli([...args, '--format', 'json'], repo);
    assert.deepEqual(JSON.parse(json.stdout), JSON.parse(format.stdout));
    const md = await runCli([...args, '--format', 'markdown'], repo);
    assert.match(md.stdout, /^### `src\/cli\/args\.ts:\d+-\d+`/m);
    const budget = await runCli([...args, '--format', 'markdown', '--max-tokens', '150'], repo);
    assert.equal(budget.code, 0);
    assert.ok(estimateTokens(budget.stdout) <= 150, `${estimateTokens(budget.stdout)} tokens`);
    assert.match(budget.stderr, /kept \d of 4 results(, the best cut to its first lines,)? to fit --max-tokens 150/);
    assert.match(budget.stdout, /left out to fit 150 tokens\.\n$/, 'stdout says what was left out');
    const clash = await runCli([...args, '--json', '--format', 'xml'], repo);
    assert.equal(clash.code, 2);
    const bad = await runCli([...args, '--format', 'yaml'], repo);
    assert.equal(bad.code, 2);
  });
});
