import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chunkFile } from '../../src/chunk/index.js';
import {
  breadcrumbIdentifiers,
  definesName,
  formatBreadcrumb,
  formatParsed,
  innermost,
  nameWords,
  ownDefinition,
  parseBreadcrumb,
  parseElement,
} from '../../src/text/breadcrumb.js';

/** Every breadcrumb the chunker writes for a file, each once. */
async function breadcrumbsOf(path: string, text: string): Promise<string[]> {
  const chunks = await chunkFile(path, text, { maxLines: 3 });
  return [...new Set(chunks.map((c) => formatBreadcrumb(c.symbols)).filter(Boolean))];
}

const body = (indent: string) => `${indent}let a = 1;\n${indent}let b = 2;\n${indent}let c = 3;\n`;

describe('breadcrumb codec', () => {
  test('parses elements into kind, defined name and the text as written; formats back to the same string', () => {
    assert.deepEqual(parseBreadcrumb('class Router > method handle'), [
      { kind: 'class', name: 'Router' },
      { kind: 'method', name: 'handle' },
    ]);
    assert.deepEqual(parseElement('func (m *Mux) ServeHTTP'), { kind: 'func', name: 'ServeHTTP', qualifiedName: '(m *Mux) ServeHTTP' });
    assert.deepEqual(parseBreadcrumb(''), []);
    for (const crumb of ['class Router > method handle', 'impl Service for Router > fn call', 'func (m *Mux) ServeHTTP', 'namespace app > function Foo::run']) {
      assert.equal(formatParsed(parseBreadcrumb(crumb)), crumb);
    }
  });

  test('the defined name, across languages', () => {
    const names: [string, string][] = [
      ['fn push_back', 'push_back'],
      ['func (c *Cache) Get', 'Get'],
      ['class Router', 'Router'],
      ['function Foo::run', 'run'],
      ['function exports.render', 'render'],
      ['type Set<T>', 'Set'],
      ['method #secret', 'secret'],
      ['method "~validate"', '~validate'],
      ['module zod/v4', 'zod/v4'],
      ['function (anonymous)', ''],
      ['method [Symbol.iterator]', ''],
    ];
    for (const [label, name] of names) assert.equal(parseElement(label).name, name, label);
  });

  test('a Rust impl names the type it adds to, never the trait, and does not define it', () => {
    const names: [string, string][] = [
      ['impl Service for Router', 'Router'],
      ['impl From<T> for Body', 'Body'],
      ['impl<T> From<T> for Body', 'Body'],
      ['impl<S> Router<S>', 'Router'],
      ['impl AsRef<JoinHandle<T>> for AbortOnDropHandle<T>', 'AbortOnDropHandle'],
      ["impl Lock for &'a mut Synced", 'Synced'],
      ["impl Display for dyn Expected + '_", 'Expected'],
      ['impl Serialize for crate::body::Body', 'Body'],
      ['impl Serialize for (A, B)', ''],
      ['impl Serialize for [T]', ''],
    ];
    for (const [label, name] of names) assert.equal(parseElement(label).name, name, label);
    assert.equal(definesName(parseElement('impl Service for Router')), false);
    assert.equal(ownDefinition('impl Service for Router'), null);
    assert.equal(ownDefinition('impl Service for Router > fn call'), 'call');
    assert.equal(innermost('impl Service for Router > fn call')?.name, 'call');
    // `Router::call` and `Service::call` both qualify the method.
    assert.deepEqual(breadcrumbIdentifiers('impl Service<Request<B>> for Router<S> > fn call'), ['impl', 'Service', 'for', 'Router', 'fn', 'call']);
  });

  test('the searchable words of the innermost element', () => {
    assert.deepEqual(nameWords('class Router > method handleRequest'), ['handlerequest', 'handle', 'request']);
    assert.deepEqual(nameWords('func (m *Mux) ServeHTTP'), ['mux', 'servehttp', 'serve', 'http']);
    assert.deepEqual(nameWords('impl Service for Router'), ['service', 'for', 'router']);
    assert.deepEqual(nameWords(''), []);
  });

  test('breadcrumbs as the chunker writes them parse to the names they define', async () => {
    const cases: [string, string, Record<string, string | null>][] = [
      ['a.rs', `pub struct Router;\n\nimpl Service for Router {\n    fn call(&self) {\n${body('        ')}    }\n}\n\nimpl<T> From<T> for Body {\n    fn from(t: T) -> Body {\n${body('        ')}    }\n}\n`, {
        'struct Router': 'Router',
        'impl Service for Router > fn call': 'call',
        'impl From<T> for Body > fn from': 'from',
      }],
      ['A.java', `package x;\n\npublic class Router {\n  public void handle(int a) {\n${body('    ')}  }\n  public Router() {\n${body('    ')}  }\n}\n`, {
        'class Router > method handle': 'handle',
        'class Router > constructor Router': 'Router',
      }],
      ['a.cpp', `namespace app {\nvoid Foo::run(int x) {\n${body('  ')}}\n}\n`, { 'namespace app > function Foo::run': 'run' }],
      ['a.py', `class Flask(App):\n    def route(self, rule):\n        a = 1\n        b = 2\n        return a + b\n`, { 'class Flask > method route': 'route' }],
      ['a.ts', `export class Router {\n  handle(req: Request): void {\n${body('    ')}  }\n}\n\nexport const makeRouter = () => {\n${body('  ')}};\n`, {
        'class Router > method handle': 'handle',
        'function makeRouter': 'makeRouter',
      }],
      ['a.go', `package x\n\nfunc (m *Mux) ServeHTTP(w int) {\n${body('\t')}}\n`, { 'func (m *Mux) ServeHTTP': 'ServeHTTP' }],
    ];
    for (const [path, text, expected] of cases) {
      const crumbs = await breadcrumbsOf(path, text);
      for (const [crumb, name] of Object.entries(expected)) {
        assert.ok(crumbs.includes(crumb), `${path}: ${crumb} not among ${JSON.stringify(crumbs)}`);
        assert.equal(ownDefinition(crumb), name, crumb);
        assert.equal(formatParsed(parseBreadcrumb(crumb)), crumb);
      }
    }
  });
});
