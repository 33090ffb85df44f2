import { runningElsewhere } from '../service/run-record.js';
import type { IndexLayout } from '../store/layout.js';
import type { RunElsewhere } from './index-tasks.js';

/** Another process's run on this index (the CLI's, a hook's, another server's) as a running task, for IndexTasks. */
export function taskElsewhere(layout: () => IndexLayout | null): RunElsewhere {
  return () => {
    const at = layout();
    const run = at && runningElsewhere(at);
    if (!run) return null;
    const { id, pid, kind, phase, startedAt, percent, files, chunks, chunksPerSecond, secondsLeft } = run;
    return { id, pid, state: 'running', kind, phase, startedAt, finishedAt: null, percent, files, chunks, chunksPerSecond: chunksPerSecond ?? null, secondsLeft: secondsLeft ?? null, errors: [], warnings: [], summary: null };
  };
}
