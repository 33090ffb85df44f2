import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeQuery } from '../../src/search/query.js';
import { isLongQuery, queryParts } from '../../src/search/query-parts.js';
import { pathMatch } from '../../src/search/rank/signals/query-paths.js';
import { stackFrames } from '../../src/search/stack-frames.js';

const weightOf = (parts: ReturnType<typeof queryParts>, term: string) => new Map(parts.terms).get(term) ?? 0;

describe('stack frames', () => {
  test('each runtime’s frame format gives path, line and function; dependencies and runtimes are not user code', () => {
    const cases: [string, { path: string; line: number; fn: string | null; user: boolean }][] = [
      ['  File "/home/u/proj/app/models.py", line 12, in save', { path: '/home/u/proj/app/models.py', line: 12, fn: 'save', user: true }],
      ['  File "/usr/lib/python3.11/json/decoder.py", line 337, in decode', { path: '/usr/lib/python3.11/json/decoder.py', line: 337, fn: 'decode', user: false }],
      ['    at Router.handle (src/router.js:12:5)', { path: 'src/router.js', line: 12, fn: 'handle', user: true }],
      ['    at src/x.js:1:2', { path: 'src/x.js', line: 1, fn: null, user: true }],
      ['    at next (/app/node_modules/express/lib/router/route.js:149:13)', { path: '/app/node_modules/express/lib/router/route.js', line: 149, fn: 'next', user: false }],
      ['    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)', { path: 'node:internal/process/task_queues', line: 95, fn: 'processTicksAndRejections', user: false }],
      ['\tat com.acme.shop.Cart.add(Cart.java:42)', { path: 'com/acme/shop/Cart.java', line: 42, fn: 'add', user: true }],
      ['\tat java.base/java.util.HashMap.get(HashMap.java:556)', { path: 'java/util/HashMap.java', line: 556, fn: 'get', user: false }],
      ["app/models/user.rb:12:in 'save'", { path: 'app/models/user.rb', line: 12, fn: 'save', user: true }],
      ['             at ./src/parser.rs:40:9', { path: './src/parser.rs', line: 40, fn: null, user: true }],
      ['             at /rustc/90b35a623/library/core/src/panicking.rs:72:14', { path: '/rustc/90b35a623/library/core/src/panicking.rs', line: 72, fn: null, user: false }],
    ];
    for (const [line, want] of cases) assert.deepEqual(stackFrames(line).frames, [want], line);
  });

  test('a Go frame takes its function from the line before', () => {
    const { frames } = stackFrames('main.(*Server).handle(0xc000010000)\n\t/home/u/proj/server/handler.go:88 +0x1d2\nruntime.goexit()\n\t/usr/local/go/src/runtime/asm_amd64.s:1650 +0x1');
    assert.deepEqual(frames, [{ path: '/home/u/proj/server/handler.go', line: 88, fn: 'handle', user: true }]);
  });

  test('Python prints the innermost call last, the others first', () => {
    assert.equal(stackFrames('Traceback (most recent call last):\n  File "a.py", line 1, in f\n  File "b.py", line 2, in g').innermostLast, true);
    assert.equal(stackFrames('Error: x\n    at f (a.js:1:1)\n    at g (b.js:2:2)').innermostLast, false);
  });
});

describe('long queries as weighted parts', () => {
  const trace = [
    'Traceback (most recent call last):',
    '  File "/srv/.venv/lib/python3.11/site-packages/flask/app.py", line 1484, in full_dispatch_request',
    '  File "/srv/proj/app/routes.py", line 11, in create_invoice',
    '  File "/srv/proj/app/billing/discounts.py", line 11, in apply_discount',
    '  File "/usr/lib/python3.11/collections/__init__.py", line 1121, in __getitem__',
    "KeyError: 'SPRING24'",
  ].join('\n');

  test('the innermost user frame weighs most: its path is the first hint at weight 1, its function the heaviest symbol', () => {
    const parts = queryParts(trace);
    assert.deepEqual(parts.paths[0], { path: '/srv/proj/app/billing/discounts.py', line: 11, weight: 1 });
    assert.equal(parts.paths[1]!.path, '/srv/proj/app/routes.py');
    assert.ok(parts.paths[1]!.weight < 1);
    assert.ok(!parts.paths.some((p) => p.path.includes('site-packages') || p.path.includes('/usr/lib/')), 'no hint for dependency or stdlib frames');
    assert.deepEqual(parts.symbols[0], ['apply_discount', 1]);
    assert.ok(weightOf(parts, 'apply_discount') > weightOf(parts, 'create_invoice'));
    assert.ok(weightOf(parts, 'full_dispatch_request') < weightOf(parts, 'create_invoice'), 'a vendored frame weighs least');
    assert.ok(weightOf(parts, 'keyerror') > 0, 'the exception name is a term');
    assert.equal(weightOf(parts, '1484'), 0, 'line numbers are no terms');
  });

  test('prose weighs less the longer it is; identifiers, paths and quoted code keep their weight', () => {
    const report = (prose: string) => `The \`parse_config\` helper in src/config/loader.ts drops keys. ${prose}`;
    const short = queryParts(report('It happens on every start.'));
    const long = queryParts(report(Array.from({ length: 60 }, (_, i) => `sentence${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))} happens`).join(' ')));
    assert.ok(weightOf(long, 'happens') < weightOf(short, 'happens'), `${weightOf(long, 'happens')} < ${weightOf(short, 'happens')}`);
    assert.equal(weightOf(long, 'parse_config'), weightOf(short, 'parse_config'));
    assert.ok(weightOf(long, 'parse_config') > weightOf(long, 'happens'));
    assert.ok(long.paths.some((p) => p.path === 'src/config/loader.ts'));
    assert.ok(long.symbols.some(([name]) => name === 'parse_config'));
  });

  test('a 10,000-character paste is bounded: at most 300 terms and 12 symbols', () => {
    const paste = Array.from({ length: 400 }, (_, i) => `word${i} someName${i} `).join('').slice(0, 10_000);
    const parts = queryParts(paste);
    assert.ok(parts.terms.length <= 300 && parts.symbols.length <= 12, `${parts.terms.length} terms, ${parts.symbols.length} symbols`);
  });

  test('short questions are not long queries and are analysed as before', () => {
    assert.equal(isLongQuery('how does the router match a path with parameters'), false);
    assert.equal(isLongQuery(trace), true);
    const q = analyzeQuery('how app.handle dispatches requests');
    assert.equal(q.long, false);
    assert.deepEqual(q.pathHints, []);
    assert.deepEqual(q.symbols, ['handle', 'app.handle']);
    assert.equal(analyzeQuery(trace, undefined, { longQueries: false }).long, false);
  });

  test('a long report asks how to use the project only when its first line is a question', () => {
    const body = '\n\n' + 'The converter runs before the validator, so the validator sees the converted value and fails. '.repeat(4);
    assert.equal(analyzeQuery(`Add support for converters on slotted classes${body}`).asksHowTo, false, 'an imperative title');
    assert.equal(analyzeQuery(`I get a TypeError when a converter is set${body}`).asksHowTo, false, 'a personal title');
    assert.equal(analyzeQuery(`How do I run the validator before the converter?${body}`).asksHowTo, true);
    assert.equal(analyzeQuery('Add support for converters').asksHowTo, true, 'a short instruction still asks how');
  });

  test('a long Chinese report keeps its Chinese: in what the vector reads and as bigram terms', () => {
    const report = `结账时优惠券折扣计算失败，页面显示服务器内部错误。${'用户输入优惠码以后点击支付，订单没有生成。'.repeat(8)}\n  File "/srv/shop/app/billing/discounts.py", line 11, in apply_discount\nKeyError: 'SPRING24'`;
    const q = analyzeQuery(report);
    assert.equal(q.long, true);
    assert.match(q.embedText, /^结账时优惠券折扣计算失败/);
    assert.ok(q.terms.includes('优惠') && q.terms.includes('apply_discount'), q.terms.slice(0, 20).join(' '));
    assert.equal(q.pathHints[0]?.path, '/srv/shop/app/billing/discounts.py');
  });

  test('a path in a trace matches the view path it ends with, more surely the more segments agree', () => {
    assert.equal(pathMatch('/home/u/proj/app/models.py', 'app/models.py'), 1);
    assert.equal(pathMatch('/home/u/proj/app/models.py', 'lib/models.py'), 0.5);
    assert.equal(pathMatch('models.py', 'app/models.py'), 1);
    assert.equal(pathMatch('/home/u/proj/app/models.py', 'app/views.py'), 0);
    assert.equal(pathMatch('com/acme/shop/Cart.java', 'src/main/java/com/acme/shop/Cart.java'), 1);
  });
});
