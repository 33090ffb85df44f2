import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Embedder } from '../../src/embed/runtime/types.js';
import { QueryCache } from '../../src/session/query-cache.js';
import { editDistance, matchSymbol } from '../../src/search/symbol-match.js';
import { languagesFor } from '../../src/search/language.js';
import { describeError } from '../../src/mcp/tools/errors.js';
import { INDEX_RUN, OcragError, StoreDamageError } from '../../src/util/errors.js';
import { TreeWatcher } from '../../src/session/tree-watcher.js';
import { git, tempDir } from '../helpers.js';

describe('symbol matching', () => {
  test('exact, case-insensitive, partial and fuzzy matches; qualifiers must appear in the breadcrumb', () => {
    assert.equal(matchSymbol('class Router > method handle', 'handle'), 'exact');
    assert.equal(matchSymbol('class Router > method handle', 'Router.handle'), 'exact');
    assert.equal(matchSymbol('class Router > method handle', 'Router::handle'), 'exact');
    assert.equal(matchSymbol('class Router > method handle', 'Server.handle'), 'none');
    assert.equal(matchSymbol('func (c *Cache) Get', 'Cache.Get'), 'exact');
    assert.equal(matchSymbol('function parseArgs', 'parseargs'), 'case-insensitive');
    assert.equal(matchSymbol('function parseArgsStrict', 'parseArgs'), 'partial');
    assert.equal(matchSymbol('function parseArgs', 'parseArsg'), 'fuzzy');
    assert.equal(matchSymbol('function render', 'parse'), 'none');
    assert.equal(matchSymbol('', 'parse'), 'none');
    assert.equal(matchSymbol('impl Service for Router', 'Router'), 'exact');
    assert.equal(matchSymbol('impl Service for Router > fn call', 'Router::call'), 'exact');
    assert.equal(matchSymbol('impl Service for Router', 'Service'), 'none');
    assert.equal(matchSymbol('module zod/v4', 'zod/v4'), 'exact');
    assert.equal(editDistance('kitten', 'sitting', 5), 3);
    assert.equal(editDistance('a', 'abcdef', 2), 3);
  });
});

describe('query vector cache', () => {
  test('repeated queries skip the model; the least recently used entry goes first', async () => {
    const asked: string[] = [];
    const model: Embedder = {
      modelId: 'm',
      dim: 1,
      embed: async (texts) => texts.map(() => new Float32Array(1)),
      embedQuery: async (text) => {
        asked.push(text);
        return new Float32Array([text.length]);
      },
      close: async () => undefined,
    };
    const cache = new QueryCache(model, 2);
    await cache.embedQuery('a');
    await cache.embedQuery('bb');
    await cache.embedQuery('a');
    await cache.embedQuery('ccc');
    await cache.embedQuery('a');
    await cache.embedQuery('bb');
    assert.deepEqual(asked, ['a', 'bb', 'ccc', 'bb']);
    assert.deepEqual([cache.hits, cache.misses, cache.size], [2, 4, 2]);
  });

  test('a failed embedding is not cached', async () => {
    let calls = 0;
    const model = { modelId: 'm', dim: 1, embed: async () => [], close: async () => undefined, embedQuery: async () => (calls++ === 0 ? Promise.reject(new Error('busy')) : new Float32Array(1)) } as Embedder;
    const cache = new QueryCache(model);
    await assert.rejects(cache.embedQuery('q'));
    await new Promise((r) => setImmediate(r));
    assert.equal((await cache.embedQuery('q')).length, 1);
  });

  test("passes an index run's prepare through to the model it wraps", () => {
    const prepared: number[] = [];
    const model = { modelId: 'm', dim: 1, embed: async () => [], embedQuery: async () => new Float32Array(1), close: async () => undefined, prepare: (n: number) => void prepared.push(n) } as Embedder;
    new QueryCache(model).prepare(3);
    assert.deepEqual(prepared, [3]);
  });
});

test('language filters accept common names and extensions', () => {
  assert.deepEqual([...languagesFor('TypeScript')], ['typescript', 'tsx']);
  assert.deepEqual([...languagesFor('py')], ['python']);
  assert.deepEqual([...languagesFor('c#')], ['c_sharp']);
  assert.deepEqual([...languagesFor('elixir')], ['elixir']);
  // An extension names its files' language; Objective-C by its common names.
  assert.deepEqual(['jsonc', 'm', 'yml', 'objc', 'Objective-C', 'objcpp'].map((l) => [...languagesFor(l)]), [['json'], ['objective_c'], ['yaml'], ['objective_c'], ['objective_c'], ['objective_cpp']]);
});

describe('work tree watcher', () => {
  /** Lets queued file events reach the watcher and its follow-up work (a git check-ignore) finish. */
  const settle = async (watcher: TreeWatcher) => {
    const deadline = Date.now() + 10_000;
    do await new Promise((resolve) => setTimeout(resolve, 50));
    while ((watcher as unknown as { settingUp: number }).settingUp > 0 && Date.now() < deadline);
  };

  test('a folder deleted and made again before its events are read is watched anew, even if it gets the same inode', async () => {
    const repo = path.join(tempDir('watch'), 'repo');
    fs.mkdirSync(path.join(repo, 'gears/inner'), { recursive: true });
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, 'gears/inner/wheel.ts'), 'wheel');
    const watcher = new TreeWatcher(repo);
    try {
      await watcher.watchFoldersOf(['gears/inner/wheel.ts']);
      await settle(watcher);
      watcher.markClean();
      // Synchronous, so the watcher reads the deletions only once the new folders exist (a busy server does the
      // same); on ext4 they usually get back the inode numbers the old ones had.
      fs.rmSync(path.join(repo, 'gears'), { recursive: true });
      fs.mkdirSync(path.join(repo, 'gears/inner'), { recursive: true });
      await settle(watcher);
      assert.equal(watcher.dirty, true, 'the deletion is a change');
      watcher.markClean();
      fs.writeFileSync(path.join(repo, 'gears/inner/later.ts'), 'later');
      await settle(watcher);
      assert.equal(watcher.dirty, true, 'a file written in the folder made again is seen');
    } finally {
      watcher.close();
    }
  });
});

describe('failures an agent is told', () => {
  const told = (e: unknown) => describeError(e, () => undefined);

  test('the fix comes from the remedy, as the call to make through this server; words alone add nothing', () => {
    assert.match(told(new StoreDamageError('/r/.ocrag/lance', 'a data file is short')), /run "ocrag index --rebuild".*\(through this server: call index_codebase with full=true\)$/);
    assert.match(told(new OcragError('no index for this commit yet: run "ocrag index"', 'index', INDEX_RUN)), /\(through this server: call index_codebase\)$/);
    // A message that speaks of an index run without one fixing it (set_root to a folder never indexed) gets no call.
    assert.doesNotMatch(told(new OcragError('/x is not a git repository nor a folder indexed by ocrag (or run "ocrag index" there first)')), /index_codebase/);
    assert.match(told(new OcragError('not inside a git repository: /home/u', 'no-workspace')), /pass --repo <dir>/);
  });
});
