import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkFile, detectLanguage, chunkerVersion, DEFAULT_CHUNK_OPTIONS } from '../../src/chunk/index.js';
import { assertMaxLines, assertWellFormed, chunkWith, describe, lineOf } from './helpers.js';

const ROUTER_TS = `import { EventEmitter } from 'node:events';
import type { Request, Response } from './http.js';

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Routes requests to handlers by method and path.
 */
export class Router extends EventEmitter {
  private readonly routes = new Map<string, Handler>();

  /** Registers a handler for a method and path. */
  add(method: string, path: string, handler: Handler): void {
    this.routes.set(\`\${method} \${path}\`, handler);
  }

  @traced()
  async handle(request: Request): Promise<Response> {
    const handler = this.routes.get(\`\${request.method} \${request.path}\`);
    if (!handler) return { status: 404, body: 'not found' };
    return handler(request);
  }
}

export interface Handler {
  (request: Request): Promise<Response>;
}

export type Method = 'GET' | 'POST';

export enum Status { Ok = 200, NotFound = 404 }

/** Wraps a handler with a timeout. */
export const withTimeout = (handler: Handler, ms = DEFAULT_TIMEOUT_MS): Handler => async (request) => {
  return Promise.race([handler(request), new Promise<Response>((_, reject) => setTimeout(reject, ms))]);
};

export default function createRouter(): Router {
  return new Router();
}

console.log('router loaded');
`;

test('exports the fixed API', () => {
  assert.equal(typeof chunkerVersion(), 'string');
  assert.deepEqual({ ...DEFAULT_CHUNK_OPTIONS }, { maxLines: 80, windowLines: 60, windowOverlap: 10, maxLineChars: 1000 });
});

test('detectLanguage maps extensions and file names', () => {
  const expected: Record<string, string> = {
    'src/a.ts': 'typescript', 'types/x.d.ts': 'typescript', 'ui/App.tsx': 'tsx', 'lib/a.mjs': 'javascript',
    'a.jsx': 'javascript', 'tool.py': 'python', 'main.go': 'go', 'lib.rs': 'rust', 'A.java': 'java',
    'B.cs': 'c_sharp', 'x.cpp': 'cpp', 'x.hpp': 'cpp', 'x.c': 'c', 'x.h': 'c', 'x.rb': 'ruby', 'x.php': 'php',
    'run.sh': 'bash', 'site.css': 'css', 'README.md': 'markdown', 'package.json': 'json', 'ci.yml': 'yaml',
    'Dockerfile': 'dockerfile', 'Makefile': 'make', 'LICENSE': 'text', 'notes.xyz': 'text', 'C:\\src\\A.JAVA': 'java',
  };
  for (const [path, language] of Object.entries(expected)) assert.equal(detectLanguage(path), language, path);
});

test('typescript: definitions with their doc comments and decorators, code between as glue', async () => {
  const chunks = await chunkFile('src/router.ts', ROUTER_TS);
  assertWellFormed(ROUTER_TS, chunks);
  assert.ok(chunks.every((chunk) => chunk.language === 'typescript'));

  const router = chunkWith(chunks, 'class Router');
  assert.equal(router.startLine, lineOf(ROUTER_TS, 'Routes requests') - 1);
  assert.ok(router.text.startsWith('/**\n * Routes requests'));
  assert.equal(router.endLine, lineOf(ROUTER_TS, 'return handler(request);') + 2);

  assert.deepEqual(chunkWith(chunks, 'interface Handler').startLine, lineOf(ROUTER_TS, 'export interface Handler'));
  assert.equal(chunkWith(chunks, 'type Method').startLine, lineOf(ROUTER_TS, 'export type Method'));
  assert.equal(chunkWith(chunks, 'enum Status').startLine, lineOf(ROUTER_TS, 'export enum Status'));

  const arrow = chunkWith(chunks, 'function withTimeout');
  assert.equal(arrow.startLine, lineOf(ROUTER_TS, '/** Wraps a handler'));
  assert.equal(arrow.endLine, lineOf(ROUTER_TS, 'Promise.race') + 1);
  assert.equal(chunkWith(chunks, 'function createRouter').startLine, lineOf(ROUTER_TS, 'export default function'));

  const glue = chunks.filter((chunk) => chunk.symbols.length === 0);
  assert.deepEqual(glue.map((chunk) => [chunk.startLine, chunk.endLine]), [
    [1, lineOf(ROUTER_TS, 'DEFAULT_TIMEOUT_MS = 30_000')],
    [lineOf(ROUTER_TS, "console.log('router loaded')"), lineOf(ROUTER_TS, "console.log('router loaded')")],
  ]);
});

test('a class longer than maxLines is split into its head and its methods', async () => {
  const chunks = await chunkFile('src/router.ts', ROUTER_TS, { maxLines: 8 });
  assertWellFormed(ROUTER_TS, chunks);
  assertMaxLines(chunks, 8);

  const head = chunkWith(chunks, 'class Router');
  assert.deepEqual([head.startLine, head.endLine], [lineOf(ROUTER_TS, 'Routes requests') - 1, lineOf(ROUTER_TS, 'private readonly routes')]);
  const add = chunkWith(chunks, 'class Router', 'method add');
  assert.equal(add.startLine, lineOf(ROUTER_TS, 'Registers a handler'));
  assert.equal(add.endLine, add.startLine + 3);
  const handle = chunkWith(chunks, 'class Router', 'method handle');
  assert.equal(handle.startLine, lineOf(ROUTER_TS, '@traced()'));
  // The class's closing brace joins the last method rather than becoming a chunk of its own.
  assert.equal(handle.endLine, lineOf(ROUTER_TS, 'return handler(request);') + 2);
  assert.ok(handle.text.endsWith('  }\n}'));
});

test('a long definition without nested definitions becomes windows under its symbol', async () => {
  const body = Array.from({ length: 200 }, (_, i) => `  total += values[${i}] * ${i};`).join('\n');
  const text = `export function weightedSum(values: number[]): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
  const chunks = await chunkFile('sum.ts', text);
  assertWellFormed(text, chunks);
  assertMaxLines(chunks, 80);
  assert.ok(chunks.length >= 4);
  assert.ok(chunks.every((chunk) => chunk.symbols.join() === 'function weightedSum'));
  assert.equal(chunks[0]!.startLine, 1);
  assert.equal(chunks.at(-1)!.endLine, 204);
  assert.ok(chunks[1]!.startLine <= chunks[0]!.endLine, 'windows overlap');
});

test('multi-line top-level values are definitions; a line right below a definition joins it', async () => {
  const ts = [
    'export const routes = [',
    "  { path: '/', handler: home },",
    '];',
    '',
    'const limit = 10;',
    '',
    'function home() {',
    "  return 'home';",
    '}',
    '__name(home, "home");',
  ].join('\n');
  const tsChunks = await chunkFile('routes.js', ts);
  assertWellFormed(ts, tsChunks);
  assert.deepEqual(tsChunks.map((chunk) => [chunk.startLine, chunk.endLine, chunk.symbols.join()]), [
    [1, 3, 'const routes'], [5, 5, ''], [7, 10, 'function home'],
  ]);

  const py = 'ROUTES = {\n    "/": "home",\n}\n\nDEBUG = False\n';
  const pyChunks = await chunkFile('routes.py', py);
  assert.deepEqual(pyChunks.map((chunk) => [chunk.startLine, chunk.endLine, chunk.symbols.join()]), [
    [1, 3, 'variable ROUTES'], [5, 5, ''],
  ]);
});

const SERVICE_PY = `"""User service."""
import functools

CACHE = {}


# Memoises results per argument tuple.
def memoize(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        if args not in CACHE:
            CACHE[args] = fn(*args)
        return CACHE[args]
    return wrapper


@dataclass(frozen=True)
class User:
    """A registered user."""
    name: str
    email: str

    @property
    def domain(self) -> str:
        return self.email.split("@")[1]

    # Display form used in the admin UI.
    def display(self) -> str:
        return f"{self.name} <{self.email}>"


if __name__ == "__main__":
    print(User("a", "a@b.c").display())
`;

test('python: decorated classes and functions, comments above, methods inside classes', async () => {
  const chunks = await chunkFile('svc/users.py', SERVICE_PY);
  assertWellFormed(SERVICE_PY, chunks);
  const memoize = chunkWith(chunks, 'function memoize');
  assert.equal(memoize.startLine, lineOf(SERVICE_PY, '# Memoises'));
  assert.equal(memoize.endLine, lineOf(SERVICE_PY, 'return wrapper'));
  const user = chunkWith(chunks, 'class User');
  assert.equal(user.startLine, lineOf(SERVICE_PY, '@dataclass'));
  assert.equal(user.endLine, lineOf(SERVICE_PY, 'return f"'));

  const split = await chunkFile('svc/users.py', SERVICE_PY, { maxLines: 6 });
  assertWellFormed(SERVICE_PY, split);
  assertMaxLines(split, 6);
  const head = chunkWith(split, 'class User');
  assert.deepEqual([head.startLine, head.endLine], [lineOf(SERVICE_PY, '@dataclass'), lineOf(SERVICE_PY, 'email: str')]);
  assert.equal(chunkWith(split, 'class User', 'method domain').startLine, lineOf(SERVICE_PY, '@property'));
  assert.equal(chunkWith(split, 'class User', 'method display').startLine, lineOf(SERVICE_PY, '# Display form'));
});

const SERVER_GO = `package server

import (
	"context"
	"net/http"
)

// Server serves HTTP until its context ends.
type Server struct {
	addr string
	mux  *http.ServeMux
}

type (
	// Middleware wraps a handler.
	Middleware func(http.Handler) http.Handler
	Store      interface{ Get(key string) ([]byte, error) }
)

// New returns a server listening on addr.
func New(addr string) *Server {
	return &Server{addr: addr, mux: http.NewServeMux()}
}

// Run serves until ctx is cancelled.
// It returns the listener's error.
func (s *Server) Run(ctx context.Context) error {
	srv := &http.Server{Addr: s.addr, Handler: s.mux}
	go func() { <-ctx.Done(); srv.Close() }()
	return srv.ListenAndServe()
}
`;

test('go: types, functions and methods with the comments directly above them', async () => {
  const chunks = await chunkFile('server/server.go', SERVER_GO);
  assertWellFormed(SERVER_GO, chunks);
  const server = chunkWith(chunks, 'struct Server');
  assert.deepEqual([server.startLine, server.endLine], [lineOf(SERVER_GO, '// Server serves'), lineOf(SERVER_GO, 'mux  *http')+ 1]);
  // `type (` opens the group, so it joins the first spec rather than standing alone.
  assert.equal(chunkWith(chunks, 'type Middleware').startLine, lineOf(SERVER_GO, 'type ('));
  assert.ok(chunkWith(chunks, 'type Middleware').text.includes('// Middleware wraps'));
  assert.equal(chunkWith(chunks, 'interface Store').startLine, lineOf(SERVER_GO, 'Store      interface'));
  assert.equal(chunkWith(chunks, 'func New').startLine, lineOf(SERVER_GO, '// New returns'));
  const run = chunkWith(chunks, 'func (s *Server) Run');
  assert.deepEqual([run.startLine, run.endLine], [lineOf(SERVER_GO, '// Run serves'), sourceLineCount(SERVER_GO)]);
  assert.deepEqual(chunks[0]!.symbols, []);
  assert.equal(chunks[0]!.startLine, 1);
});

const TOKEN_RS = `use std::fmt;

/// A lexical token.
#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Number(f64),
    Op(char),
}

impl fmt::Display for Token {
    /// Writes the token as it appeared in the source.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Number(n) => write!(f, "{n}"),
            Token::Op(c) => write!(f, "{c}"),
        }
    }
}

pub trait Evaluate {
    fn evaluate(&self) -> f64;
}
`;

test('rust: doc comments and attributes belong to the item; impl blocks split into fns', async () => {
  const chunks = await chunkFile('src/token.rs', TOKEN_RS);
  assertWellFormed(TOKEN_RS, chunks);
  const token = chunkWith(chunks, 'enum Token');
  assert.deepEqual([token.startLine, token.endLine], [lineOf(TOKEN_RS, '/// A lexical'), lineOf(TOKEN_RS, 'Op(char),') + 1]);
  assert.equal(chunkWith(chunks, 'trait Evaluate').startLine, lineOf(TOKEN_RS, 'pub trait'));

  const split = await chunkFile('src/token.rs', TOKEN_RS, { maxLines: 7 });
  assertWellFormed(TOKEN_RS, split);
  const head = chunkWith(split, 'impl fmt::Display for Token');
  assert.deepEqual([head.startLine, head.endLine], [lineOf(TOKEN_RS, 'impl fmt'), lineOf(TOKEN_RS, 'impl fmt')]);
  const fmt = chunkWith(split, 'impl fmt::Display for Token', 'fn fmt');
  assert.equal(fmt.startLine, lineOf(TOKEN_RS, '/// Writes the token'));
});

const INVENTORY_JAVA = `package com.example;

import java.util.HashMap;
import java.util.Map;

/** Tracks stock levels. */
@Service
public class Inventory {
    private final Map<String, Integer> stock = new HashMap<>();

    /** Creates an empty inventory. */
    public Inventory() {
    }

    @Override
    public String toString() {
        return stock.toString();
    }

    public int add(String sku, int count) {
        return stock.merge(sku, count, Integer::sum);
    }
}
`;

test('java: classes with annotations and Javadoc; constructors and methods when split', async () => {
  const chunks = await chunkFile('src/main/java/com/example/Inventory.java', INVENTORY_JAVA);
  assertWellFormed(INVENTORY_JAVA, chunks);
  const whole = chunkWith(chunks, 'class Inventory');
  assert.deepEqual([whole.startLine, whole.endLine], [lineOf(INVENTORY_JAVA, '/** Tracks'), sourceLineCount(INVENTORY_JAVA)]);

  const split = await chunkFile('Inventory.java', INVENTORY_JAVA, { maxLines: 5 });
  assertWellFormed(INVENTORY_JAVA, split);
  assert.equal(chunkWith(split, 'class Inventory', 'constructor Inventory').startLine, lineOf(INVENTORY_JAVA, '/** Creates'));
  assert.equal(chunkWith(split, 'class Inventory', 'method toString').startLine, lineOf(INVENTORY_JAVA, '@Override'));
  assert.equal(chunkWith(split, 'class Inventory', 'method add').startLine, lineOf(INVENTORY_JAVA, 'public int add'));
});

test('other grammars: c#, c++, c, ruby, php, bash, tsx, javascript', async () => {
  const cases: Array<[string, string, string[][]]> = [
    ['A.cs', 'namespace App {\n  /// <summary>Greets.</summary>\n  public class Greeter {\n    public string Hi() => "hi";\n  }\n}\n',
      [['namespace App', 'class Greeter'], ['namespace App', 'class Greeter', 'method Hi']]],
    ['a.cpp', '#include <string>\n// Greets people.\nclass Greeter {\n public:\n  std::string hi() const { return "hi"; }\n};\n\nint main() { return 0; }\n',
      [['class Greeter'], ['class Greeter', 'method hi'], ['function main']]],
    ['a.c', '#include <stdio.h>\n\n/* Entry point. */\nint main(void) {\n  puts("hi");\n  return 0;\n}\n', [['function main']]],
    ['a.rb', "# Greets.\nclass Greeter\n  def hi\n    'hi'\n  end\nend\n", [['class Greeter'], ['class Greeter', 'method hi']]],
    ['a.php', '<?php\n/** Greets. */\nfunction hi(): string {\n  return "hi";\n}\n', [['function hi']]],
    ['a.sh', '#!/bin/sh\nset -e\n\n# Greets.\ngreet() {\n  echo hi\n}\n\ngreet\n', [['function greet']]],
    ['a.tsx', 'export function App(): JSX.Element {\n  return <div className="app">hi</div>;\n}\n', [['function App']]],
    ['a.js', "'use strict';\nexports.hi = function () {\n  return 'hi';\n};\nclass A { m() {} }\n", [['function exports.hi'], ['class A']]],
  ];
  // Members of a definition kept whole are chunks inside it; a member on its parent's one line (`class A { m() {} }`) is not.
  for (const [path, text, expected] of cases) {
    const chunks = await chunkFile(path, text);
    assertWellFormed(text, chunks);
    const symbols = chunks.filter((chunk) => chunk.symbols.length > 0).map((chunk) => chunk.symbols);
    assert.deepEqual(symbols, expected, path);
  }
  // An export macro between `class` and the name (`class SPDLOG_API logger`) reads as a function to the grammar.
  const exported = 'namespace app {\nclass APP_API logger {\n  void flush() { sink_->flush(); }\n};\n}\n';
  const macro = (await chunkFile('logger.hpp', exported)).filter((chunk) => chunk.symbols.length > 0).map((chunk) => chunk.symbols.join(' > '));
  assert.deepEqual(macro, ['namespace app > class logger', 'namespace app > class logger > method flush']);
  // Split, the class's head takes the namespace's own line: no chunk is a namespace's opening alone.
  const csharp = await chunkFile('A.cs', cases[0]![1], { maxLines: 3 });
  assert.equal(chunkWith(csharp, 'namespace App', 'class Greeter').startLine, 1);
  const php = await chunkFile('a.php', cases[4]![1]);
  // A lone `<?php` is too small to be a chunk of its own.
  assert.deepEqual([chunkWith(php, 'function hi').startLine, php.length], [1, 1]);
});

function sourceLineCount(text: string): number {
  return text.trimEnd().split('\n').length;
}

test('namespaces only group: the one class they hold is the unit, their head joins what they hold', async () => {
  // C#: the class is named under its namespace, so its own name is what the chunk defines.
  const cs = 'using System;\n\nnamespace App.Core\n{\n    /// <summary>Maps tokens.</summary>\n    static class OptionMapper\n    {\n        public static int Map() { return 1; }\n    }\n}\n';
  const csChunks = await chunkFile('OptionMapper.cs', cs);
  assertWellFormed(cs, csChunks);
  const mapper = chunkWith(csChunks, 'namespace App.Core', 'class OptionMapper');
  assert.deepEqual([mapper.startLine, mapper.endLine], [3, 10]);
  assert.ok(!csChunks.some((chunk) => chunk.symbols.join(' > ') === 'namespace App.Core'), describe(csChunks));
  // Ruby: a module holding one class; a module with methods of its own is still a module.
  const rb = 'module HTTP\n  class Request\n    def perform\n      1\n    end\n  end\nend\n\nmodule Helpers\n  def one; 1; end\n  def two; 2; end\nend\n';
  const rbSymbols = (await chunkFile('request.rb', rb)).map((chunk) => chunk.symbols.join(' > '));
  assert.deepEqual(rbSymbols, ['module HTTP > class Request', 'module HTTP > class Request > method perform', 'module Helpers', 'module Helpers > method one', 'module Helpers > method two']);
  // C++: nested namespaces around functions split along them; the namespaces' lines join the first and last ones.
  const body = Array.from({ length: 30 }, (_, i) => `    int v${i} = ${i};`).join('\n');
  const cpp = `namespace app {\nnamespace cfg {\nvoid load() {\n${body}\n}\n\nvoid save() {\n${body}\n}\n}  // namespace cfg\n}  // namespace app\n`;
  const cppChunks = await chunkFile('cfg.cpp', cpp, { maxLines: 40 });
  assertWellFormed(cpp, cppChunks);
  assert.deepEqual(cppChunks.map((chunk) => [chunk.symbols.join(' > '), chunk.startLine]), [['namespace app > namespace cfg > function load', 1], ['namespace app > namespace cfg > function save', 36]]);
  assert.equal(cppChunks[1]!.endLine, sourceLineCount(cpp));
});

test('c++: attribute macros do not break the tree, and a function returning a reference is named', async () => {
  const text = [
    'namespace spdlog {',
    'SPDLOG_INLINE logger::logger(logger &&other) SPDLOG_NOEXCEPT',
    '    : name_(std::move(other.name_)) {}',
    '',
    'SPDLOG_INLINE logger &logger::operator=(logger other) SPDLOG_NOEXCEPT {',
    '    this->swap(other);',
    '    return *this;',
    '}',
    '',
    'SPDLOG_INLINE const std::string &logger::name() const { return name_; }',
    '',
    'SPDLOG_INLINE void logger::flush() { flush_(); }',
    '}  // namespace spdlog',
    '',
  ].join('\n');
  const chunks = await chunkFile('logger-inl.h', text, { maxLines: 6 });
  assertWellFormed(text, chunks);
  // Read as types, the macros ended the namespace at the first of them and named nothing right.
  assert.deepEqual(chunks.map((chunk) => chunk.symbols.join(' > ')), [
    'namespace spdlog > function logger::logger', 'namespace spdlog > function logger::operator=',
    'namespace spdlog > function logger::name', 'namespace spdlog > function logger::flush',
  ]);
  // What is stored is the file's own text, macros and all.
  assert.ok(chunks[1]!.text.startsWith('SPDLOG_INLINE logger &logger::operator='));
});
