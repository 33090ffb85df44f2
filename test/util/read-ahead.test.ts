// util/read-ahead.ts serves both a sequential source (an artifact's members, bounded by bytes) and pipelined reads
// (blob contents from `git cat-file --batch`, bounded by how many are in flight).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReadAhead, readEach } from '../../src/util/read-ahead.js';

test('ReadAhead keeps a sequential source ahead within its budget and hands items out in order', async () => {
  let fetched = 0;
  const ahead = new ReadAhead(async () => (fetched < 10 ? ++fetched : null), () => 1, 3);
  assert.equal(await ahead.take(), 1);
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(fetched <= 4, `fetched ${fetched}: the budget bounds what waits to be taken`);
  const rest: number[] = [];
  for (let n = await ahead.take(); n !== null; n = await ahead.take()) rest.push(n);
  assert.deepEqual(rest, [2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

test('readEach keeps at most `ahead` reads in flight, answers in order, and a failed read reaches its consumer', async () => {
  let inFlight = 0;
  let most = 0;
  const read = async (n: number) => {
    most = Math.max(most, ++inFlight);
    await new Promise((resolve) => setTimeout(resolve, (n * 7) % 5));
    inFlight--;
    if (n === 17) throw new Error('blob 17 is gone');
    return n * 2;
  };
  const reads = readEach(Array.from({ length: 20 }, (_, i) => i), read, 4);
  const got: number[] = [];
  try {
    for (let next = await reads.take(); next; next = await reads.take()) {
      assert.equal(next.item, got.length);
      got.push(await next.read);
    }
    assert.fail('the failed read should have thrown');
  } catch (e) {
    assert.match((e as Error).message, /blob 17 is gone/);
  } finally {
    await reads.stop();
  }
  assert.deepEqual(got, Array.from({ length: 17 }, (_, i) => i * 2));
  assert.ok(most > 1 && most <= 5, `at most ${most} reads at once`);
});
