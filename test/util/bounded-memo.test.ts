import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BoundedMemo } from '../../src/util/bounded-memo.js';

test('a bounded memo computes each key once, and forgets everything once full', () => {
  const computed: string[] = [];
  const memo = new BoundedMemo<string, string>(3);
  const upper = (key: string) => (computed.push(key), key.toUpperCase());
  assert.equal(memo.get('a', upper), 'A');
  assert.equal(memo.get('a', upper), 'A');
  memo.get('b', upper);
  memo.get('c', upper);
  assert.deepEqual(computed, ['a', 'b', 'c'], 'remembered while there is room');
  memo.get('d', upper);
  memo.get('d', upper);
  memo.get('a', upper);
  assert.deepEqual(computed, ['a', 'b', 'c', 'd', 'a'], 'full: cleared, then d and a computed again');
});
