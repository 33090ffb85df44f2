import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CodeIndex } from '../../src/service/code-index.js';
import type { SearchResult } from '../../src/search/search.js';
import { committedRepo, tempDir, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

/** A store's shape (an interface) and the function that does its work, in files of their own. */
const FILES = {
  'src/store-shape.ts': [
    '/** What a store offers: the state, a way to send actions and a way to be told of changes. */',
    'export interface Store<S, A> {',
    '  getState(): S;',
    '  dispatch(action: A): void;',
    '  subscribe(listener: () => void): () => void;',
    '}',
    '',
  ].join('\n'),
  'src/create-store.ts': [
    'export function createStore<S, A>(reducer: (state: S, action: A) => S, initial: S) {',
    '  let state = initial;',
    '  const listeners = new Set<() => void>();',
    '  const dispatch = (action: A) => {',
    '    state = reducer(state, action);',
    '    for (const listener of listeners) listener();',
    '  };',
    '  const subscribe = (listener: () => void) => {',
    '    listeners.add(listener);',
    '    return () => listeners.delete(listener);',
    '  };',
    '  return { getState: () => state, dispatch, subscribe };',
    '}',
    '',
  ].join('\n'),
};

describe('type declarations for questions on how the code works', () => {
  let index: CodeIndex;
  const search = (query: string, typeDeclarations: boolean): Promise<SearchResult[]> =>
    index.search(query, { k: 10, update: false, committedOnly: true, ranking: { typeDeclarations } });
  const scoreOf = (results: SearchResult[], file: string) => results.find((r) => r.path === file)?.score;

  before(async () => {
    index = await CodeIndex.open(committedRepo(path.join(tempDir('shapes'), 'shapes'), FILES, 'a store'));
    await index.index();
  });
  after(() => index.close());

  test('an interface ranks below the code that does the work', async () => {
    const question = 'how are subscribed listeners told when an action is dispatched';
    const [on, off] = [await search(question, true), await search(question, false)];
    assert.equal(on[0].path, 'src/create-store.ts', on.map((r) => r.path).join(', '));
    assert.ok(scoreOf(on, 'src/store-shape.ts')! < scoreOf(off, 'src/store-shape.ts')!, 'the interface is pushed down');
  });

  test('a question about types, or a plain phrase, leaves declarations alone', async () => {
    for (const query of ['how are the store interface types declared', 'listeners told when an action is dispatched']) {
      const [on, off] = [await search(query, true), await search(query, false)];
      assert.deepEqual(on.map((r) => [r.path, r.score]), off.map((r) => [r.path, r.score]), query);
    }
  });
});
