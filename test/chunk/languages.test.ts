// The languages given syntax rules after the first thirteen: fixture files chunked by definition with breadcrumbs,
// and for every one of them a definition found by its name, from a grammar package other than the first one.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { chunkFile } from '../../src/chunk/index.js';
import { grammarKey, resolveGrammarFile } from '../../src/chunk/grammar-files.js';
import { ruleRevisions, rulesFor } from '../../src/chunk/rules.js';
import { PROJECT_ROOT } from '../helpers.js';
import { assertWellFormed, chunkWith, describe, lineOf } from './helpers.js';

const FIXTURES = path.join(PROJECT_ROOT, 'fixtures', 'languages');

async function fixture(name: string): Promise<{ text: string; chunks: Awaited<ReturnType<typeof chunkFile>> }> {
  const text = fs.readFileSync(path.join(FIXTURES, name), 'utf8');
  const chunks = await chunkFile(name, text);
  assertWellFormed(text, chunks);
  return { text, chunks };
}

const lines = (chunk: { startLine: number; endLine: number }) => [chunk.startLine, chunk.endLine];

test('kotlin: a class with its KDoc, its methods and companion as members, an extension function by its receiver', async () => {
  const { text, chunks } = await fixture('RateLimiter.kt');
  assert.ok(chunks.every((c) => c.language === 'kotlin'));
  assert.deepEqual(lines(chunkWith(chunks, 'class RateLimiter')), [lineOf(text, '/** Lets a caller'), lineOf(text, 'fun perSecond') + 2]);
  assert.deepEqual(lines(chunkWith(chunks, 'class RateLimiter', 'method tryAcquire')), [lineOf(text, '/** Takes one token'), lineOf(text, 'tokens -= 1') + 2]);
  assert.equal(chunkWith(chunks, 'class RateLimiter', 'method refill').startLine, lineOf(text, 'private fun refill'));
  assert.equal(chunkWith(chunks, 'class RateLimiter', 'object Companion', 'method perSecond').startLine, lineOf(text, 'fun perSecond'));
  assert.equal(chunkWith(chunks, 'class RateLimiter', 'property tokens').startLine, lineOf(text, 'private var tokens'));
  assert.equal(chunkWith(chunks, 'interface Throttle').startLine, lineOf(text, 'interface Throttle'));
  assert.equal(chunkWith(chunks, 'function RateLimiter.acquireOrThrow').startLine, lineOf(text, 'fun RateLimiter.acquireOrThrow'));
});

test('swift: a class with its doc comment and members, a protocol, an extension holding a method', async () => {
  const { text, chunks } = await fixture('ImageCache.swift');
  assert.deepEqual(lines(chunkWith(chunks, 'class ImageCache')), [lineOf(text, '/// Keeps decoded'), lineOf(text, 'images[oldest] = nil') + 3]);
  assert.deepEqual(lines(chunkWith(chunks, 'class ImageCache', 'method store')), [lineOf(text, '/// Stores an image'), lineOf(text, 'order.append(url)') + 2]);
  assert.equal(chunkWith(chunks, 'class ImageCache', 'method init').startLine, lineOf(text, 'init(limit: Int)'));
  assert.equal(chunkWith(chunks, 'class ImageCache', 'method evictIfNeeded').startLine, lineOf(text, 'private func evictIfNeeded'));
  assert.equal(chunkWith(chunks, 'protocol ImageLoading', 'signature load').startLine, lineOf(text, 'protocol ImageLoading') + 1);
  assert.equal(chunkWith(chunks, 'extension ImageCache', 'method load').startLine, lineOf(text, 'if let cached') - 1);
  // An actor holds methods as a class does (CLASS_LIKE_KINDS).
  const actor = await chunkFile('Counter.swift', 'actor Counter {\n    var count = 0\n\n    func increment() {\n        count += 1\n    }\n}\n');
  assert.deepEqual(lines(chunkWith(actor, 'actor Counter', 'method increment')), [4, 6]);
});

test('elixir: def, defp and defmacro calls are definitions inside their defmodule, with @doc above them', async () => {
  const { text, chunks } = await fixture('session_registry.ex');
  const module = 'defmodule Acme.SessionRegistry';
  assert.deepEqual(lines(chunkWith(chunks, module)), [1, lineOf(text, 'unquote(block)') + 3]);
  assert.deepEqual(lines(chunkWith(chunks, module, 'def start_link')), [lineOf(text, '@doc "Starts'), lineOf(text, 'GenServer.start_link') + 1]);
  assert.equal(chunkWith(chunks, module, 'def register').startLine, lineOf(text, '@doc "Registers'), 'a guard does not hide the name');
  assert.equal(chunkWith(chunks, module, 'def handle_call').startLine, lineOf(text, '@impl true'));
  assert.equal(chunkWith(chunks, module, 'defp expire_idle').startLine, lineOf(text, 'defp expire_idle'));
  assert.equal(chunkWith(chunks, module, 'defp now').startLine, lineOf(text, 'defp now, do:'));
  assert.equal(chunkWith(chunks, module, 'defmacro with_session').startLine, lineOf(text, 'defmacro with_session'));
  assert.equal(chunks.filter((c) => c.symbols.at(-1) === 'def register').length, 1, 'the call inside the macro is no definition');
});

test('elixir: a function of several clauses is one definition, from its first clause to its last', async () => {
  const text = [
    'defmodule Stack do', '  @spec run(list, list) :: term', '  def run(env, []), do: {:ok, env}', '', '  # the last item is the adapter',
    '  def run(env, [f]), do: f.(env)', '  def run(env, [h | t]), do: h.(env, t)', '', '  def other(x), do: x', 'end', '',
  ].join('\n');
  const chunks = await chunkFile('lib/stack.ex', text);
  const run = chunks.filter((c) => c.symbols.at(-1) === 'def run');
  assert.equal(run.length, 1);
  assert.deepEqual(lines(run[0]!), [lineOf(text, '@spec run'), lineOf(text, 'h | t')]);
  assert.equal(chunkWith(chunks, 'defmodule Stack', 'def other').startLine, lineOf(text, 'def other'));
});

/** One file per language: a definition's breadcrumb and the line it starts on. */
const NAMED: Array<{ path: string; text: string; symbols: string[]; from: string }> = [
  { path: 'Cache.scala', symbols: ['object Cache', 'method evict'], from: 'def evict',
    text: 'package demo\n\nobject Cache {\n  val limit = 16\n  def evict(key: String): Unit = {\n    store.remove(key)\n  }\n}\ntrait Store { def get(k: String): Option[String] }\n' },
  { path: 'Cache.hs', symbols: ['function lookupOr'], from: '-- | Looks',
    text: 'module Cache where\n\n-- | Looks a key up, with a default.\nlookupOr :: Ord k => v -> k -> Map k v -> v\nlookupOr d k m = fromMaybe d (lookup k m)\n\ndata Entry = Entry { key :: String }\n\ninstance Show Entry where\n  show = key\n' },
  { path: 'cache.lua', symbols: ['function M.evict'], from: 'M.evict = function',
    text: 'local M = {}\n\nfunction M.get(key)\n  return M.store[key]\nend\n\nM.evict = function(key)\n  M.store[key] = nil\nend\n\nlocal function helper() return 1 end\n\nreturn M\n' },
  { path: 'cache.zig', symbols: ['struct Cache', 'method evict'], from: 'pub fn evict',
    text: 'const std = @import("std");\n\npub const Cache = struct {\n    size: usize,\n\n    pub fn evict(self: *Cache) void {\n        self.size = 0;\n    }\n};\n\ntest "evicts" {\n    try std.testing.expect(true);\n}\n' },
  { path: 'cache.dart', symbols: ['class Cache', 'method evict'], from: '/// Drops',
    text: 'class Cache {\n  final int size = 0;\n\n  /// Drops one key.\n  void evict(String key) {\n    _store.remove(key);\n  }\n}\n\nint helper(int x) {\n  return x * 2;\n}\n' },
  { path: 'Cache.m', symbols: ['implementation Cache', 'method removeObjectForKey:'], from: '- (void)removeObjectForKey',
    text: '#import "Cache.h"\n\n@implementation Cache\n\n- (void)removeObjectForKey:(NSString *)key {\n    [self.store removeObjectForKey:key];\n}\n\n@end\n' },
];

test('scala, haskell, lua, zig, dart and objective-c: a definition by its name, in its breadcrumb', async () => {
  for (const c of NAMED) {
    const chunks = await chunkFile(c.path, c.text);
    assertWellFormed(c.text, chunks);
    assert.equal(chunkWith(chunks, ...c.symbols).startLine, lineOf(c.text, c.from), `${c.path}:\n${describe(chunks)}`);
  }
  const haskell = await chunkFile('Cache.hs', NAMED[1]!.text);
  assert.deepEqual(lines(chunkWith(haskell, 'function lookupOr')), [3, 5], 'its haddock and signature belong to the function');
  assert.ok(chunkWith(haskell, 'instance Show Entry'));
  assert.ok(chunkWith(await chunkFile('cache.zig', NAMED[3]!.text), 'test evicts'));
});

test('a Haskell function of several equations is one definition, from its signature to its last equation', async () => {
  const text = 'module M where\n\nclamp :: Int -> Int\nclamp n\n  | n < 0 = 0\n  | otherwise = n\nclamp _ = 0\n\nother = 1\n';
  const chunks = await chunkFile('M.hs', text);
  assert.deepEqual(lines(chunkWith(chunks, 'function clamp')), [3, 7]);
  assert.deepEqual(lines(chunkWith(chunks, 'function other')), [9, 9]);
});

test('every language with rules names a grammar file that is installed', () => {
  const languages = Object.keys(ruleRevisions());
  assert.ok(['kotlin', 'swift', 'scala', 'elixir', 'haskell', 'lua', 'zig', 'dart', 'objective_c', 'python', 'c'].every((l) => languages.includes(l)));
  for (const language of languages) {
    const rules = rulesFor(language);
    assert.ok(rules, language);
    assert.ok(fs.existsSync(resolveGrammarFile(rules.grammar)), `${language}: ${grammarKey(rules.grammar)}`);
  }
});
