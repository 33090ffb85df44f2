// Members of a definition kept whole (methods of a class under maxLines, functions inside functions) are chunks of
// their own inside it, with the enclosing definitions in their breadcrumb and their own lines: every grammar.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkFile, type Chunk } from '../../src/chunk/index.js';
import { ruleRevisions } from '../../src/chunk/rules.js';
import { assertMaxLines, chunkWith, describe, lineOf } from './helpers.js';

const ENGINE_JAVA = `package demo;

/** Runs jobs, again when they fail. */
public class Engine {
    private static final int MAX_RETRIES = 5;
    private final Queue queue;

    public Engine(Queue queue) {
        this.queue = queue;
    }

    /** Retries a job, doubling the delay each time. */
    public void retryWithBackoff(Job job) throws InterruptedException {
        long delay = 100;
        for (int i = 0; i < MAX_RETRIES; i++) {
            if (job.run()) return;
            Thread.sleep(delay);
            delay *= 2;
        }
    }

    static class Stats {
        int runs;
        void record() { runs++; }
    }
}
`;

const BLUETOOTH_CPP = `#include <string>

class BluetoothManager {
public:
    BluetoothManager() = default;
    int connected = 0;

    // Reconnects a dropped device.
    bool reconnectDevice(const std::string& id) {
        connected++;
        return pair(id);
    }

    bool pair(const std::string& id);
private:
    void reset() { connected = 0; }
};

bool BluetoothManager::pair(const std::string& id) {
    return !id.empty();
}
`;

/** [start, end] of a chunk: its own lines. */
function span(chunk: Chunk): [number, number] {
  return [chunk.startLine, chunk.endLine];
}

test('java: each method and nested class of a class kept whole is a chunk of its own, with its lines', async () => {
  const chunks = await chunkFile('src/Engine.java', ENGINE_JAVA);
  const text = ENGINE_JAVA;
  assert.deepEqual(span(chunkWith(chunks, 'class Engine')), [lineOf(text, '/** Runs jobs'), text.trimEnd().split('\n').length], describe(chunks));
  assert.deepEqual(span(chunkWith(chunks, 'class Engine', 'method retryWithBackoff')), [lineOf(text, '/** Retries'), lineOf(text, 'delay *= 2') + 2]);
  assert.deepEqual(span(chunkWith(chunks, 'class Engine', 'constructor Engine')), [lineOf(text, 'public Engine('), lineOf(text, 'this.queue = queue') + 1]);
  assert.deepEqual(span(chunkWith(chunks, 'class Engine', 'class Stats')), [lineOf(text, 'static class Stats'), lineOf(text, 'void record') + 1]);
  assert.deepEqual(span(chunkWith(chunks, 'class Engine', 'class Stats', 'method record')), [lineOf(text, 'void record'), lineOf(text, 'void record')]);
});

test('c++: inline methods of a class are chunks of their own; an out-of-line definition keeps its qualified name', async () => {
  const chunks = await chunkFile('src/bluetooth.cpp', BLUETOOTH_CPP);
  const text = BLUETOOTH_CPP;
  assert.deepEqual(span(chunkWith(chunks, 'class BluetoothManager', 'method reconnectDevice')), [lineOf(text, '// Reconnects'), lineOf(text, 'return pair(id)') + 1]);
  assert.deepEqual(span(chunkWith(chunks, 'class BluetoothManager', 'method reset')), [lineOf(text, 'void reset()'), lineOf(text, 'void reset()')]);
  assert.deepEqual(span(chunkWith(chunks, 'function BluetoothManager::pair')), [lineOf(text, 'bool BluetoothManager::pair'), lineOf(text, 'return !id.empty()') + 1]);
  assert.deepEqual(span(chunkWith(chunks, 'class BluetoothManager')), [lineOf(text, 'class BluetoothManager {'), lineOf(text, 'void reset()') + 1]);
});

/** One file per grammar: the member chunk expected (breadcrumb) and the lines it must span, found by their text. */
const CASES: Array<{ language: string; path: string; text: string; member: string[]; from: string; to: string; closer?: 0 }> = [
  { language: 'typescript', path: 'a.ts', member: ['class SessionStore', 'method evictExpired'], from: '/** Drops', to: 'return now - this.ttl',
    text: 'export class SessionStore {\n  private readonly ttl = 60;\n\n  /** Drops sessions past their time. */\n  evictExpired(now: number): number {\n    return now - this.ttl;\n  }\n}\n' },
  { language: 'tsx', path: 'a.tsx', member: ['function App', 'function Item'], from: 'function Item', to: 'return <li>',
    text: 'export function App(): JSX.Element {\n  function Item(): JSX.Element {\n    return <li>one</li>;\n  }\n  return <ul><Item /></ul>;\n}\n' },
  { language: 'javascript', path: 'a.js', member: ['function outer', 'function innerHelper'], from: 'function innerHelper', to: 'return 1',
    text: 'function outer() {\n  function innerHelper() {\n    return 1;\n  }\n  return innerHelper();\n}\n' },
  { language: 'python', path: 'a.py', member: ['class SessionStore', 'method evict_expired'], from: '@staticmethod', to: 'return now - 1', closer: 0,
    text: 'class SessionStore:\n    """Keeps sessions."""\n\n    @staticmethod\n    def evict_expired(now):\n        return now - 1\n' },
  { language: 'go', path: 'a.go', member: ['func Outer', 'struct point'], from: 'type point', to: 'x int',
    text: 'package store\n\nfunc Outer() int {\n\ttype point struct {\n\t\tx int\n\t}\n\treturn point{x: 1}.x\n}\n' },
  { language: 'rust', path: 'a.rs', member: ['impl SessionStore', 'fn evict_expired'], from: '/// Drops', to: 'now - self.ttl',
    text: 'impl SessionStore {\n    /// Drops sessions past their time.\n    pub fn evict_expired(&mut self, now: u64) -> u64 {\n        now - self.ttl\n    }\n}\n' },
  { language: 'java', path: 'A.java', member: ['class A', 'method run'], from: 'void run()', to: 'return;',
    text: 'class A {\n    void run() {\n        return;\n    }\n}\n' },
  { language: 'c_sharp', path: 'A.cs', member: ['class SessionStore', 'method EvictExpired'], from: 'public int EvictExpired', to: 'return now - ttl',
    text: 'public class SessionStore {\n  private int ttl = 60;\n\n  public int EvictExpired(int now) {\n    return now - ttl;\n  }\n}\n' },
  { language: 'cpp', path: 'a.cpp', member: ['namespace app', 'function run'], from: 'int run()', to: 'return 0',
    text: 'namespace app {\nint run() {\n  return 0;\n}\nint stop() { return 1; }\n}\n' },
  { language: 'c', path: 'a.c', member: ['struct session_store', 'struct entry'], from: 'struct entry', to: 'int id',
    text: 'struct session_store {\n    struct entry {\n        int id;\n    } first;\n    int ttl;\n};\n' },
  { language: 'ruby', path: 'a.rb', member: ['class SessionStore', 'method evict_expired'], from: 'def evict_expired', to: 'now - 1',
    text: 'class SessionStore\n  def evict_expired(now)\n    now - 1\n  end\nend\n' },
  { language: 'php', path: 'a.php', member: ['class SessionStore', 'method evictExpired'], from: 'public function evictExpired', to: 'return $now - 1',
    text: '<?php\nclass SessionStore {\n    public function evictExpired(int $now): int {\n        return $now - 1;\n    }\n}\n' },
  { language: 'bash', path: 'a.sh', member: ['function outer', 'function inner_helper'], from: 'inner_helper() {', to: 'echo 1',
    text: 'outer() {\n  inner_helper() {\n    echo 1\n  }\n  inner_helper\n}\n' },
  { language: 'kotlin', path: 'A.kt', member: ['class SessionStore', 'method evictExpired'], from: '/** Drops', to: 'return now - ttl',
    text: 'class SessionStore {\n    private val ttl = 60\n\n    /** Drops sessions past their time. */\n    fun evictExpired(now: Int): Int {\n        return now - ttl\n    }\n}\n' },
  { language: 'swift', path: 'A.swift', member: ['class SessionStore', 'method evictExpired'], from: '/// Drops', to: 'return now - ttl',
    text: 'class SessionStore {\n    let ttl = 60\n\n    /// Drops sessions past their time.\n    func evictExpired(now: Int) -> Int {\n        return now - ttl\n    }\n}\n' },
  { language: 'dart', path: 'a.dart', member: ['class SessionStore', 'method evictExpired'], from: '/// Drops', to: 'return now - ttl',
    text: 'class SessionStore {\n  final int ttl = 60;\n\n  /// Drops sessions past their time.\n  @override\n  int evictExpired(int now) {\n    return now - ttl;\n  }\n}\n' },
  { language: 'scala', path: 'A.scala', member: ['class SessionStore', 'method evictExpired'], from: '/** Drops', to: 'now - ttl',
    text: 'class SessionStore {\n  val ttl = 60\n\n  /** Drops sessions past their time. */\n  def evictExpired(now: Int): Int = {\n    now - ttl\n  }\n}\n' },
  { language: 'elixir', path: 'a.ex', member: ['defmodule SessionStore', 'def evict_expired'], from: '@doc', to: 'now - 1',
    text: 'defmodule SessionStore do\n  @ttl 60\n\n  @doc "Drops sessions past their time."\n  def evict_expired(now) do\n    now - 1\n  end\nend\n' },
  { language: 'haskell', path: 'A.hs', member: ['instance Store Sessions', 'method evict'], from: 'evict now s', to: 'filter', closer: 0,
    text: 'module A where\n\ninstance Store Sessions where\n  evict now s =\n    filter (alive now) s\n  size = length\n' },
  { language: 'lua', path: 'a.lua', member: ['function M.outer', 'function inner_helper'], from: 'local function inner_helper', to: 'return 1',
    text: 'function M.outer()\n  local function inner_helper()\n    return 1\n  end\n  return inner_helper()\nend\n' },
  { language: 'zig', path: 'a.zig', member: ['struct SessionStore', 'method evictExpired'], from: '/// Drops', to: 'return now - self.ttl',
    text: 'const SessionStore = struct {\n    ttl: u64,\n\n    /// Drops sessions past their time.\n    pub fn evictExpired(self: *SessionStore, now: u64) u64 {\n        return now - self.ttl;\n    }\n};\n' },
  { language: 'objective_c', path: 'a.m', member: ['implementation SessionStore', 'method evictExpired:'], from: '- (NSInteger)evictExpired', to: 'return now - 1',
    text: '@implementation SessionStore\n\n- (NSInteger)evictExpired:(NSInteger)now {\n    return now - 1;\n}\n\n@end\n' },
];

test('every grammar: a member of a definition kept whole is a chunk of its own, on its own lines', async () => {
  assert.deepEqual(CASES.map((c) => c.language).sort(), Object.keys(ruleRevisions()).sort(), 'one case per language with rules');
  for (const c of CASES) {
    const chunks = await chunkFile(c.path, c.text);
    const member = chunkWith(chunks, ...c.member);
    // The member's block closes on the line after `to` (`}`, `end`), except in Python.
    assert.deepEqual(span(member), [lineOf(c.text, c.from), lineOf(c.text, c.to) + (c.closer ?? 1)], `${c.language}:\n${describe(chunks)}`);
    const parent = chunkWith(chunks, ...c.member.slice(0, -1));
    assert.ok(parent.startLine <= member.startLine && member.endLine <= parent.endLine, `${c.language}: the member lies inside its parent`);
    assert.equal(member.text, c.text.split('\n').slice(member.startLine - 1, member.endLine).join('\n'));
  }
});

test('members never take their parent\'s lines, and a class too long to keep whole is still split as before', async () => {
  // One line holding a class and its method: the method would be the class's chunk again.
  const oneLine = await chunkFile('a.js', 'class A { m() {} }\n');
  assert.deepEqual(oneLine.map((c) => c.symbols), [['class A']]);
  const methods = Array.from({ length: 12 }, (_, i) => `  m${i}() {\n    const a = ${i};\n    const b = a + 1;\n    const c = b + 1;\n    const d = c + 1;\n    return d;\n  }\n`);
  const big = `class Big {\n${methods.join('\n')}}\n`;
  const chunks = await chunkFile('big.ts', big);
  assertMaxLines(chunks, 80);
  assert.deepEqual(chunks.filter((c) => c.symbols.join(' > ') === 'class Big').map(span), [[1, 1]], 'only its head line is left under the class alone');
  for (let i = 0; i < 12; i++) assert.equal(chunkWith(chunks, 'class Big', `method m${i}`).startLine, lineOf(big, `m${i}() {`));
  const ids = new Set(chunks.map((c) => `${c.startLine}-${c.endLine}`));
  assert.equal(ids.size, chunks.length, 'no two chunks on the same lines (a chunk id is its blob and span)');
});

/** Fields, properties, constants and signatures where a grammar shows them: each its own member chunk, one line here. */
const FIELDS: Array<{ path: string; text: string; members: string[][] }> = [
  { path: 'A.java', text: 'class A {\n  private static final int MAX = 5, MIN = 1;\n  enum Kind {\n    ONE, TWO\n  }\n}\ninterface I {\n  int K = 1;\n}\n',
    // `ONE, TWO` share a line: the first names it.
    members: [['class A', 'field MAX'], ['class A', 'enum Kind', 'constant ONE'], ['interface I', 'constant K']] },
  { path: 'A.cs', text: 'class A {\n  private int ttl = 60;\n  public string Name { get; set; }\n}\n', members: [['class A', 'field ttl'], ['class A', 'property Name']] },
  { path: 'a.cpp', text: 'class A {\n  static const int kMax = 8;\n  int* ptr_;\n  bool pair(int id);\n};\n', members: [['class A', 'field kMax'], ['class A', 'field ptr_']] },
  { path: 'a.ts', text: 'class A {\n  private readonly ttl = 60;\n  handler = () => 1;\n}\ninterface I {\n  name: string;\n  run(): void;\n}\n',
    members: [['class A', 'field ttl'], ['class A', 'method handler'], ['interface I', 'property name'], ['interface I', 'signature run']] },
  { path: 'a.js', text: 'class A {\n  ttl = 60;\n  static #count = 0;\n}\n', members: [['class A', 'field ttl'], ['class A', 'field #count']] },
  { path: 'a.py', text: 'class A:\n    TTL = 60\n    name: str = "x"\n', members: [['class A', 'field TTL'], ['class A', 'field name']] },
  { path: 'a.go', text: 'package a\n\ntype S struct {\n\tX, Y int\n\tio.Reader\n}\n\ntype I interface {\n\tRead(p []byte) int\n}\n', members: [['struct S', 'field X'], ['interface I', 'signature Read']] },
  { path: 'a.rs', text: 'struct S {\n    ttl: u64,\n}\nenum E {\n    One,\n    Two(u8),\n}\ntrait T {\n    const K: u8;\n    fn run(&self);\n}\n',
    members: [['struct S', 'field ttl'], ['enum E', 'variant One'], ['enum E', 'variant Two'], ['trait T', 'constant K'], ['trait T', 'signature run']] },
  { path: 'a.php', text: '<?php\nclass A {\n  const MAX = 5;\n  public int $count = 0;\n}\n', members: [['class A', 'constant MAX'], ['class A', 'property count']] },
  { path: 'a.rb', text: 'module Outer\n  VERSION = "1"\n  class A\n    MAX = 5\n  end\nend\n', members: [['module Outer', 'constant VERSION'], ['module Outer', 'class A', 'constant MAX']] },
];

test('fields, properties, constants and signatures are members; a method declared in a C++ class is found where it is defined', async () => {
  for (const c of FIELDS) {
    const chunks = await chunkFile(c.path, c.text);
    const members = chunks.filter((chunk) => chunk.symbols.length > 1 && !/ (class|enum|interface) /.test(` ${chunk.symbols.at(-1)}`));
    assert.deepEqual(members.map((m) => m.symbols), c.members, `${c.path}:\n${describe(chunks)}`);
    for (const m of members) assert.equal(m.startLine, m.endLine, `${c.path}: ${m.symbols.join(' > ')} is on its own line`);
  }
});

test('members only: fields never move the chunks a file is cut into, and outside a definition they are plain code', async () => {
  // A field sharing a line with a method gives way to it; a class with fields only and over maxLines is still windows.
  const shared = await chunkFile('a.ts', 'class B {\n  private x = 1; method() { return 1; }\n  other() {\n    return 2;\n  }\n}\n');
  assert.deepEqual(shared.map((c) => c.symbols.join(' > ')), ['class B', 'class B > method method', 'class B > method other']);
  const fields = Array.from({ length: 120 }, (_, i) => `    pub f${i}: u64,`).join('\n');
  const big = await chunkFile('big.rs', `pub struct Big {\n${fields}\n}\n`);
  const pieces = big.filter((c) => c.symbols.length === 1);
  assert.deepEqual(pieces.map(span), [[1, 60], [51, 110], [101, 122]], 'the windows it was cut into before');
  assert.equal(big.length - pieces.length, 120, 'and each field a member inside one of them');
  const top = await chunkFile('a.rs', 'const TOP: u8 = 1;\n\nfn main() {}\n');
  assert.deepEqual(top.map((c) => c.symbols), [[], ['fn main']], 'a top-level const is no member');
});
