// Long synchronous work that lets the event loop in: steps run in one go or paused, and loops that pause take turns.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventLoopYielder, runAll, runPausing, type Steps } from '../../src/util/event-loop.js';

function* squares(n: number, seen: number[]): Steps<number> {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    seen.push(i);
    sum += i * i;
    yield;
  }
  return sum;
}

describe('event loop', () => {
  test('steps give the same result run at once or paused at every step, and paused ones let the event loop in', async () => {
    const atOnce: number[] = [];
    const paused: number[] = [];
    let stepsWhenLetIn = -1;
    setImmediate(() => (stepsWhenLetIn = paused.length));
    assert.equal(runAll(squares(50, atOnce)), await runPausing(squares(50, paused), eventLoopYielder(0)));
    assert.deepEqual(paused, atOnce);
    assert.ok(stepsWhenLetIn > 0 && stepsWhenLetIn < 50, `the event loop ran between steps (after ${stepsWhenLetIn} of 50)`);
  });

  test('loops that pause resume one per turn of the event loop, in turn', async () => {
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const resumed: { loop: string; turn: number }[] = [];
    const loop = async (name: string) => {
      const pause = eventLoopYielder(0);
      for (let i = 0; i < 5; i++) {
        await pause();
        resumed.push({ loop: name, turn });
      }
    };
    await Promise.all([loop('a'), loop('b'), loop('c')]);
    counting = false;
    const turns = resumed.map((r) => r.turn);
    assert.equal(new Set(turns).size, turns.length, `no two loops resumed in one turn: ${JSON.stringify(resumed)}`);
    assert.deepEqual(resumed.slice(0, 3).map((r) => r.loop), ['a', 'b', 'c'], 'in the order they paused');
  });
});
