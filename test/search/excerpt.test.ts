import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { excerpt, WHOLE_LINES, WINDOW_LINES } from '../../src/search/excerpt.js';
import { analyzeQuery } from '../../src/search/query.js';
import { numberedLines } from '../../src/render/lines.js';

/** A function of `n` lines starting at file line `start`, with `special` put in at body line `at`. */
function bigFunction(n: number, at: number, special: string): string {
  const lines = ['export function buildReport(rows: Row[]): string {'];
  for (let i = 1; i < n - 1; i++) lines.push(i === at ? `  ${special}` : `  const step${i} = rows.length + ${i};`);
  lines.push('}');
  return lines.join('\n');
}

/** Every line a result shows is the file's line of that number; a marker line stands for exactly the lines cut. */
function assertFaithful(text: string, startLine: number, r: ReturnType<typeof excerpt>, endLine: number): void {
  const source = text.split('\n');
  const shown = numberedLines({ text: r.text, startLine, endLine, shown: r.shown });
  for (const { line, text: l } of shown) {
    if (line === null) assert.match(l, /^⋮ \d+ lines? cut \(\d+-\d+\)$/);
    else assert.equal(l, source[line - startLine], `line ${line}`);
  }
}

describe('what a result shows of its chunk', () => {
  test('a small function is shown whole', () => {
    const text = bigFunction(WHOLE_LINES, 20, 'return renderTotals(rows);');
    const r = excerpt(text, 10, 'function buildReport', analyzeQuery('render totals'));
    assert.equal(r.text, text);
    assert.equal(r.shown, undefined);
  });

  test('a big function shows its definition line and the lines around the best match, with correct line numbers', () => {
    const text = bigFunction(70, 50, 'return renderTotals(rows, currencyFormatter);');
    const startLine = 101;
    const endLine = startLine + 69;
    const r = excerpt(text, startLine, 'function buildReport', analyzeQuery('format totals with the currency formatter'));
    assert.ok(r.shown, 'cut');
    assert.equal(r.shown[0].startLine, 101, 'the definition line first');
    assert.ok(r.shown.some((s) => s.startLine <= 151 && 151 <= s.endLine), `the matching line 151 is shown: ${JSON.stringify(r.shown)}`);
    const shownLines = r.shown.reduce((n, s) => n + s.endLine - s.startLine + 1, 0);
    assert.ok(shownLines <= WINDOW_LINES + 3, `${shownLines} lines shown`);
    assert.match(r.text, /^export function buildReport/);
    assert.match(r.text, /renderTotals\(rows, currencyFormatter\)/);
    assert.match(r.text, /⋮ \d+ lines cut \(102-\d+\)/);
    assert.match(r.text, /⋮ \d+ lines cut \(\d+-170\)$/);
    assertFaithful(text, startLine, r, endLine);
  });

  test('a query naming an identifier shows where the chunk declares it', () => {
    const lines = Array.from({ length: 60 }, (_, i) => `    helperValue${i} = compute(${i})`);
    lines[0] = 'class Registry:';
    lines[44] = '    def register_plugin(self, plugin):';
    lines[45] = '        self.plugins.append(plugin)';
    const text = lines.join('\n');
    const r = excerpt(text, 1, 'class Registry', analyzeQuery('register_plugin'));
    assert.ok(r.shown?.some((s) => s.startLine <= 45 && 45 <= s.endLine), JSON.stringify(r.shown));
    assertFaithful(text, 1, r, 60);
  });

  test('Chinese text is never cut inside a character', () => {
    const lines = Array.from({ length: 80 }, (_, i) => `// 第${i}行：普通的注释文字 🙂`);
    lines[0] = 'function 配置加载() {';
    lines[60] = '  const 缓存过期时间 = 读取配置("缓存过期时间"); // 😀 表情';
    const text = lines.join('\n');
    const r = excerpt(text, 1, 'function 配置加载', analyzeQuery('缓存过期时间'));
    assert.ok(r.shown?.some((s) => s.startLine <= 61 && 61 <= s.endLine), JSON.stringify(r.shown));
    assert.ok(r.text.includes(lines[60]));
    assert.equal(Buffer.from(r.text, 'utf8').toString('utf8'), r.text, 'no lone surrogate');
    assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(r.text), 'no lone surrogate');
    assertFaithful(text, 1, r, 80);
  });

  test('with no query word in a big chunk, it shows how the chunk begins', () => {
    const text = bigFunction(70, 50, 'return x;');
    const r = excerpt(text, 1, 'function buildReport', analyzeQuery('zzz qqq'));
    assert.deepEqual(r.shown, [{ startLine: 1, endLine: 1 + WINDOW_LINES }]);
  });
});
