// The background reindex job on its own: cancelling aborts the run's signal, and how the run ends is the job's state.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { IndexSummary } from '../../src/index/indexer.js';
import { ReindexJob, type ReindexRun } from '../../src/session/reindex-job.js';

const SUMMARY = { newBlobs: 2, chunksEmbedded: 5 } as IndexSummary;
const PROGRESS = { phase: 'writing' as const, blobsDone: 1, blobsTotal: 4, chunks: 3, chunksPerSecond: 10 };

/** A run that reports once per `step()` and, like the indexer, stops at the signal right after each report. */
function steppedRun(fail?: Error) {
  let step!: () => void;
  const run = async ({ signal, onProgress }: ReindexRun): Promise<IndexSummary> => {
    for (let i = 0; i < 2; i++) {
      await new Promise<void>((resolve) => (step = resolve));
      onProgress(PROGRESS);
      if (fail && signal.aborted) throw fail;
      signal.throwIfAborted();
    }
    return SUMMARY;
  };
  return { run, step: () => step() };
}

describe('reindex job', () => {
  test('a run that ends is done, with its summary', async () => {
    const job = new ReindexJob();
    const { run, step } = steppedRun();
    assert.equal(job.start('incremental', run), true);
    assert.equal(job.start('full', run), false, 'one run at a time');
    const started = job.snapshot();
    step();
    await new Promise((r) => setImmediate(r));
    assert.equal(job.snapshot().percent, 25);
    step();
    assert.deepEqual(await job.settled(), { state: 'done', summary: SUMMARY });
    assert.equal(job.snapshot().state, 'done');
    assert.equal(job.active, false);
    // A snapshot handed out is a value: later progress made new ones.
    assert.deepEqual([started.state, started.percent, started.files], ['running', 0, { done: 0, total: 0 }]);
    assert.ok(Object.isFrozen(started) && Object.isFrozen(started.files));
  });

  test('cancel aborts the signal: the run stops after its next report, which is not shown, and ends cancelled', async () => {
    const job = new ReindexJob();
    const { run, step } = steppedRun();
    job.start('full', run);
    assert.equal(job.cancel(), true);
    assert.equal(job.snapshot().state, 'cancelling');
    step();
    assert.deepEqual(await job.settled(), { state: 'cancelled' });
    const s = job.snapshot();
    assert.deepEqual([s.state, s.percent, s.errors], ['cancelled', 0, []]);
    assert.equal(job.cancel(), false, 'nothing runs');
  });

  test('a run that fails for another reason while cancelling has failed', async () => {
    const job = new ReindexJob();
    const { run, step } = steppedRun(new Error('disk full'));
    job.start('incremental', run);
    job.cancel();
    step();
    const { cause, ...ended } = (await job.settled()) as { state: string; error: string; cause: unknown };
    assert.deepEqual(ended, { state: 'failed', error: 'disk full' });
    assert.equal((cause as Error).message, 'disk full', 'the error itself is kept, for the session to tell a refused write');
    assert.deepEqual(job.snapshot().errors, ['disk full']);
  });
});
