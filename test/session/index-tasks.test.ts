// The task manager on its own, over runs that stand in for the indexer (no repository: what is judged is the
// bookkeeping of ids, one-at-a-time, cancel and listeners, not indexing).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { IndexSummary } from '../../src/index/indexer.js';
import { IndexTasks, type IndexTaskSnapshot } from '../../src/session/index-tasks.js';
import type { ReindexRun } from '../../src/session/reindex-job.js';

const SUMMARY = { newBlobs: 4, chunksEmbedded: 9, warnings: ['0 files selected'] } as IndexSummary;

/** Runs that report once per `step()` and stop at the signal right after each report, as the indexer does. */
function steppedRunner() {
  const steps: (() => void)[] = [];
  const runner = async (_kind: string, { signal, onProgress }: ReindexRun): Promise<IndexSummary> => {
    for (let done = 1; done <= 2; done++) {
      await new Promise<void>((resolve) => steps.push(resolve));
      onProgress({ phase: 'writing', blobsDone: done * 2, blobsTotal: 4, chunks: done * 4, chunksPerSecond: 100 });
      signal.throwIfAborted();
    }
    return SUMMARY;
  };
  const step = async () => {
    while (steps.length === 0) await new Promise((r) => setImmediate(r));
    steps.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { runner, step };
}

describe('index tasks', () => {
  test('start returns an id at once; a second start while it runs returns the same id and says so', async () => {
    const { runner, step } = steppedRunner();
    const tasks = new IndexTasks('/repo/a', runner);
    assert.equal(tasks.status(), null, 'no task yet');
    const first = tasks.start('full');
    assert.equal(first.started, true);
    assert.match(first.id, /^[0-9a-f]{12}$/);
    assert.deepEqual([first.task.state, first.task.kind, first.task.root], ['running', 'full', '/repo/a']);
    const again = tasks.start('incremental');
    assert.deepEqual([again.started, again.id], [false, first.id]);
    assert.match(again.message, new RegExp(`already running \\(task ${first.id}`));
    await step();
    assert.deepEqual(tasks.status(first.id)!.files, { done: 2, total: 4 });
    await step();
    await tasks.settled();
    const done = tasks.status(first.id)!;
    assert.deepEqual([done.state, done.percent, done.chunks, done.warnings], ['done', 100, 9, ['0 files selected']]);
    assert.ok(Object.isFrozen(done) && Object.isFrozen(done.warnings));
    assert.equal(tasks.active, false);
    const next = tasks.start('incremental');
    assert.notEqual(next.id, first.id, 'a new run is a new task');
    assert.equal(tasks.status(first.id)!.state, 'done', 'the old task stays addressable');
    assert.equal(tasks.status('000000000000'), null, 'an unknown id');
    tasks.cancel(next.id);
    await step();
    await tasks.settled();
  });

  test('cancel by id stops only the running task; listeners hear every snapshot in order', async () => {
    const { runner, step } = steppedRunner();
    const tasks = new IndexTasks('/repo/b', runner);
    const heard: IndexTaskSnapshot[] = [];
    const stop = tasks.subscribe((t) => heard.push(t));
    const { id } = tasks.start('incremental');
    await step();
    assert.equal(tasks.cancel('ffffffffffff'), false, 'another id cancels nothing');
    assert.equal(tasks.cancel(id), true);
    await step();
    assert.deepEqual(await tasks.settled(), undefined, 'nothing runs any more');
    assert.equal(tasks.status(id)!.state, 'cancelled');
    assert.equal(tasks.cancel(id), false, 'an ended task cannot be cancelled');
    assert.deepEqual(
      heard.map((t) => t.state),
      ['running', 'running', 'cancelling', 'cancelled'],
    );
    assert.ok(heard.every((t) => t.id === id && t.root === '/repo/b'));
    stop();
    tasks.start('incremental');
    assert.equal(heard.length, 4, 'an unsubscribed listener hears nothing');
    tasks.cancel();
    await step();
    await tasks.settled();
  });

  test('a listener that throws does not stop the run', async () => {
    const { runner, step } = steppedRunner();
    const tasks = new IndexTasks('/repo/c', runner);
    tasks.subscribe(() => {
      throw new Error('tab closed');
    });
    const { id } = tasks.start('incremental');
    await step();
    await step();
    await tasks.settled();
    assert.equal(tasks.status(id)!.state, 'done');
  });
});
