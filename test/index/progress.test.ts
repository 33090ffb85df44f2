// The progress arithmetic every surface shows: the percent from stored files, the recent rate and the time left.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { progressPercent, StoreRate } from '../../src/index/progress.js';
import { progressLine } from '../../src/cli/progress.js';
import type { IndexProgress } from '../../src/workspace/types.js';

const at = (p: Partial<IndexProgress>): IndexProgress => ({ phase: 'embedding', blobsDone: 0, blobsTotal: 1000, chunks: 0, chunksPerSecond: null, ...p });

describe('progress', () => {
  test('the percent counts stored files only, whatever is chunked or embedded ahead of them', () => {
    assert.equal(progressPercent(at({ phase: 'listing' })), 0);
    assert.equal(progressPercent(at({ blobsChunked: 900, blobsEmbedded: 600 })), 2);
    assert.equal(progressPercent(at({ blobsDone: 500, blobsChunked: 900 })), 48);
    assert.equal(progressPercent(at({ phase: 'search-index', blobsDone: 1000 })), 95);
  });

  test('the rate is over the recent writes, and the time left follows it', () => {
    const rate = new StoreRate(0);
    assert.deepEqual(rate.at(100, 1000), { chunksPerSecond: 0, secondsLeft: null });
    rate.stored(10, 100, 1000);
    assert.deepEqual(rate.at(100, 1000), { chunksPerSecond: 100, secondsLeft: 9 });
    // A slow stretch long after: the rate is of the last window, not the run's average.
    rate.stored(20, 200, 11_000);
    rate.stored(21, 210, 30_000);
    const late = rate.at(100, 30_000);
    assert.ok(late.chunksPerSecond < 1, `${late.chunksPerSecond} chunks/s`);
    assert.ok(late.secondsLeft !== null && late.secondsLeft > 1000, `${late.secondsLeft} s left`);
  });

  test('the CLI line keeps its phase word whole at 80 columns', () => {
    for (const phase of ['reading', 'chunking', 'embedding', 'writing', 'search-index'] as const) {
      const line = progressLine(at({ phase, blobsDone: 123_456, blobsTotal: 234_567, chunks: 1_234_567, chunksPerSecond: 12_345, secondsLeft: 4000 }), 79);
      assert.ok([...line].length <= 79, line);
      assert.match(line, new RegExp(`\\d+% ${phase}(  |$)`), line);
    }
    const roomy = progressLine(at({ blobsDone: 10, chunks: 70, chunksPerSecond: 140, secondsLeft: 42 }), 119);
    assert.match(roomy, /embedding {2}files 10\/1000 {2}chunks 70 {2}140 chunks\/s {2}~42 s left$/);
    assert.doesNotMatch(progressLine(at({ phase: 'search-index', blobsDone: 1000, chunks: 70 }), 119), /chunks\/s/);
  });
});
