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
    text: 'namespace app {\nint run() {\n  return 0;\n}\n}\n' },
  { language: 'c', path: 'a.c', member: ['struct session_store', 'struct entry'], from: 'struct entry', to: 'int id',
    text: 'struct session_store {\n    struct entry {\n        int id;\n    } first;\n    int ttl;\n};\n' },
  { language: 'ruby', path: 'a.rb', member: ['class SessionStore', 'method evict_expired'], from: 'def evict_expired', to: 'now - 1',
    text: 'class SessionStore\n  def evict_expired(now)\n    now - 1\n  end\nend\n' },
  { language: 'php', path: 'a.php', member: ['class SessionStore', 'method evictExpired'], from: 'public function evictExpired', to: 'return $now - 1',
    text: '<?php\nclass SessionStore {\n    public function evictExpired(int $now): int {\n        return $now - 1;\n    }\n}\n' },
  { language: 'bash', path: 'a.sh', member: ['function outer', 'function inner_helper'], from: 'inner_helper() {', to: 'echo 1',
    text: 'outer() {\n  inner_helper() {\n    echo 1\n  }\n  inner_helper\n}\n' },
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
