import { z } from 'zod';
import { OcragError } from '../../util/errors.js';
import { rateText, timeLeftText } from '../../render/progress.js';
import type { IndexTaskSnapshot, ReindexSnapshot, RepoSessions } from '../../workspace/live.js';

/** An index task as the tools return it: the session's snapshot without the run's internal summary. */
export const taskShape = z.object({
  id: z.string().nullable().describe('the task id (index_codebase returns it); null when no run was started'),
  root: z.string().nullable().describe('the repository the task indexes'),
  state: z.enum(['idle', 'running', 'cancelling', 'done', 'failed', 'cancelled']),
  kind: z.enum(['incremental', 'full']).nullable(),
  phase: z.enum(['listing', 'reading', 'chunking', 'embedding', 'writing', 'search-index']).nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  percent: z.number(),
  files: z.object({ done: z.number(), total: z.number() }).describe('while running: files (distinct contents) durably stored, of those the run has to store; once done: the files search sees, as counts.files'),
  chunks: z.number().describe('while running: chunks durably stored so far; once done: the chunks search sees, as counts.chunks'),
  chunksPerSecond: z.number().nullable().describe('chunks stored a second over the last 10 s; null in a phase that stores none'),
  secondsLeft: z.number().nullable().describe('estimated seconds until the last file is stored; null when not known'),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
});
export type TaskView = z.infer<typeof taskShape>;

export function toTaskView(s: IndexTaskSnapshot | ReindexSnapshot): TaskView {
  const { summary: _summary, ...rest } = s;
  void _summary;
  return { id: null, root: null, ...rest, files: { ...rest.files }, errors: [...rest.errors], warnings: [...rest.warnings] };
}

/** The task with this id in any repository the server serves; unknown ids are a one-line error. */
export function findTask(sessions: RepoSessions, id: string) {
  const found = sessions.task(id);
  if (!found) throw new OcragError(`no index task ${id}: index_codebase returns task ids; a server keeps the last 20 tasks of each repository`);
  return found;
}

/** One line: what the task is doing or how it ended, with its counts and warnings. */
export function describeTask(t: TaskView): string {
  if (t.state === 'idle') return 'none started';
  const name = `${t.id ? `task ${t.id} ` : ''}(${t.kind})`;
  const counts = `${t.files.done}/${t.files.total} files, ${t.chunks} chunks`;
  const warnings = t.warnings.length ? `; warning: ${t.warnings.join('; ')}` : '';
  const pace = [rateText(t.chunksPerSecond), timeLeftText(t.secondsLeft)].filter(Boolean).map((s) => `, ${s}`).join('');
  if (t.state === 'running' || t.state === 'cancelling') return `${name} ${t.state} ${t.percent}% (${t.phase ?? 'starting'}): ${counts}${pace}${warnings}`;
  return `${name} ${t.state} at ${t.finishedAt}: ${counts}${t.errors.length ? `; errors: ${t.errors.join('; ')}` : ''}${warnings}`;
}
