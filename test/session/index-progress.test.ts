// How smoothly a real index run reports: a RepoSession's task over a generated 300-file repository (real git,
// the real model, LanceDB on disk), every snapshot heard through the task manager's listener.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { writeSyntheticRepo } from '../../fixtures/synthetic-repo.js';
import { RepoSession } from '../../src/session/session.js';
import type { IndexTaskSnapshot } from '../../src/session/index-tasks.js';
import { tempDir } from '../helpers.js';

describe('index progress', () => {
  test('moves in small steps from the start, names each phase, and counts only stored work as done', async () => {
    const repo = path.join(tempDir('progress'), 'three-hundred');
    await writeSyntheticRepo(repo, { files: 300 });
    const session = new RepoSession({ cwd: repo });
    const heard: { at: number; task: IndexTaskSnapshot }[] = [];
    session.tasks.subscribe((task) => heard.push({ at: performance.now(), task }));
    try {
      const { id } = await session.startTask('incremental');
      await session.tasks.settled();
      const final = session.tasks.status(id)!;
      assert.equal(final.state, 'done', final.errors.join('; '));
      assert.deepEqual(final.files, { done: 300, total: 300 });

      const moves = heard.filter((h, i) => i === 0 || h.task.percent !== heard[i - 1].task.percent);
      let biggestStep = 0;
      let longestWait = 0;
      for (let i = 1; i < moves.length; i++) {
        biggestStep = Math.max(biggestStep, moves[i].task.percent - moves[i - 1].task.percent);
        longestWait = Math.max(longestWait, moves[i].at - moves[i - 1].at);
      }
      const phases: string[] = [...new Set(heard.map((h) => h.task.phase).filter((p) => p !== null))];
      if (process.env.SHOW_PROGRESS) for (const m of moves) console.log(`# ${Math.round(m.at - moves[0].at)} ms ${m.task.percent}% ${m.task.phase} ${m.task.files.done}/${m.task.files.total} ${m.task.chunks}`);
      console.log(`# ${heard.length} snapshots, ${moves.length} distinct percents, biggest step ${biggestStep} %, longest wait ${Math.round(longestWait)} ms; phases ${phases.join(' ')}`);
      assert.deepEqual(phases, ['listing', 'reading', 'chunking', 'embedding', 'writing', 'search-index'].filter((p) => phases.includes(p)), 'phases come in order of first appearance');
      assert.ok(['listing', 'chunking', 'embedding', 'writing'].every((p) => phases.includes(p)), phases.join(' '));
      // Chunking moves a file at a time; embedding a slice of 256 contents at a time (about 9 % of this repository
      // per slice, a few hundred ms each on two cores); the long waits are one-time starts (model, grammars, workers).
      assert.ok(moves.length >= 10, `${moves.length} distinct percents`);
      assert.ok(biggestStep <= 15, `biggest step ${biggestStep} %`);
      assert.equal(moves.at(-1)!.task.percent, 100);
      // Counted as stored: files and chunks are under way well before 40 %, and the percent is never ahead of them.
      const early = heard.find((h) => h.task.state === 'running' && h.task.percent < 40 && h.task.files.done > 0);
      assert.ok(early && early.task.chunks > 0, 'files and chunks stored before 40 %');
      for (const { task } of heard.filter((h) => h.task.state === 'running' && h.task.files.total > 0 && h.task.phase !== 'search-index')) {
        assert.ok(task.percent <= 2 + Math.floor((93 * task.files.done) / task.files.total), `${task.percent}% with ${task.files.done}/${task.files.total} files stored`);
      }
      // A rate while chunks are stored, none in the phases that store none; a time left once something is stored.
      assert.ok(heard.some((h) => h.task.state === 'running' && (h.task.chunksPerSecond ?? 0) > 0), 'chunks/s while storing');
      assert.ok(heard.some((h) => h.task.state === 'running' && h.task.secondsLeft !== null), 'a time left while storing');
      for (const { task } of heard.filter((h) => h.task.phase === 'listing' || h.task.phase === 'search-index')) assert.equal(task.chunksPerSecond, null, `${task.phase} stores no chunks`);
      for (let i = 1; i < heard.length; i++) {
        const [a, b] = [heard[i - 1].task, heard[i].task];
        assert.ok(b.files.done >= a.files.done && b.chunks >= a.chunks && b.percent >= a.percent, 'nothing goes back');
        assert.ok(b.files.done <= b.files.total);
      }
    } finally {
      await session.close();
    }
  });
});
