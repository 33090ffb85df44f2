import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SpanMemo } from '../../src/util/span-memo.js';

describe('SpanMemo', () => {
  test('finds a span by its text wherever it stands, computing each text once', () => {
    const memo = new SpanMemo<string>(1000);
    const computed: string[] = [];
    const compute = (key: string) => (computed.push(key), key.toUpperCase());
    const source = 'parse args parse parser';
    assert.equal(memo.get(source, 0, 5, compute), 'PARSE');
    assert.equal(memo.get(source, 6, 10, compute), 'ARGS');
    assert.equal(memo.get(source, 11, 16, compute), 'PARSE');
    assert.equal(memo.get(source, 17, 23, compute), 'PARSER');
    assert.equal(memo.get('parse', 0, 5, compute), 'PARSE');
    assert.equal(memo.get('xparsex', 1, 6, compute), 'PARSE');
    assert.deepEqual(computed, ['parse', 'args', 'parser']);
  });

  test('tells apart texts of one hash slot, prefixes and non-ASCII text, past growing and forgetting', () => {
    const memo = new SpanMemo<number>(3000);
    const words = Array.from({ length: 10_000 }, (_, i) => [`w${i}`, `w${i}x`, `解析${i}`, `\ud800${i}`][i % 4]);
    for (let round = 0; round < 2; round++) {
      for (const [i, w] of words.entries()) {
        const source = `  ${w} `;
        assert.equal(memo.get(source, 2, 2 + w.length, () => i), i);
      }
    }
    assert.equal(memo.get('', 0, 0, () => -1), -1);
    assert.equal(memo.get('abc', 1, 1, () => -2), -1);
  });

  test('tells apart two texts of one hash by their text', () => {
    // Found by search: both fold to 1498382952 under the memo's hash, so only comparing the text tells them apart.
    const memo = new SpanMemo<string>(1000);
    assert.equal(memo.get(' w673879 ', 1, 8, (key) => key), 'w673879');
    assert.equal(memo.get(' w1180600 ', 1, 9, (key) => key), 'w1180600');
    assert.equal(memo.get('w673879', 0, 7, () => 'again'), 'w673879');
  });
});
