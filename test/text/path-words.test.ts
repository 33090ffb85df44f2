import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileStem, normalWord, segmentWords, wordsMatch } from '../../src/text/path-words.js';

describe('path words', () => {
  test('a file name without extensions, and a segment as its whole and its identifier parts', () => {
    assert.equal(fileStem('router.d.ts'), 'router');
    assert.equal(fileStem('lru_test.go'), 'lru_test');
    assert.equal(fileStem('.eslintrc'), '.eslintrc');
    assert.deepEqual(segmentWords('routerGroup'), ['routergroup', 'router', 'group']);
    assert.deepEqual(segmentWords('from_fn'), ['fromfn', 'from', 'fn']);
  });

  test('abbreviations are spelled out before words are compared', () => {
    assert.equal(normalWord('ctx'), normalWord('context'));
    assert.ok(wordsMatch('middleware', 'mw'));
    assert.ok(!wordsMatch('form', 'format'));
    assert.ok(wordsMatch('temporary', 'temp'));
    assert.ok(wordsMatch('permissions', 'perms'));
  });
});
