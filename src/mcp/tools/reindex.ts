import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { testSeams } from '../../util/test-seams.js';
import { guarded } from './errors.js';
import { answer, fromContract, typed } from './shared.js';
import { describeTask, findTask, taskShape, toTaskView } from './task.js';
import type { IndexTasks, IndexTaskSnapshot, TaskStart, RepoSessions } from '../../workspace/live.js';

/** How long index_codebase waits for a run that ends at once (nothing to do, no file selected), to say so in its reply. */
const FIRST_LOOK_MS = 60;

export function registerReindex(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'index_codebase',
    {
      ...fromContract('index_codebase', { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }),
      outputSchema: { taskId: z.string(), started: z.boolean(), message: z.string(), task: taskShape },
    },
    typed('index_codebase', (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const start = await session.startTask(args.full ? 'full' : 'incremental');
        const task = toTaskView((await firstLook(session.tasks, start)) ?? start.task);
        const message = `${start.message}; follow it with index_status {"task_id":"${start.id}"}`;
        return answer({ taskId: start.id, started: start.started, message, task }, `${message}\n${task.root}: ${describeTask(task)}`);
      }),
    ),
  );

  server.registerTool(
    'reindex',
    {
      ...fromContract('reindex', { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }),
      outputSchema: { started: z.boolean(), state: z.string(), kind: z.enum(['incremental', 'full']).nullable(), taskId: z.string(), message: z.string() },
    },
    typed('reindex', (args) =>
      guarded(log, async () => {
        const kind = args.full ? 'full' : 'incremental';
        const { started, id, task } = await (await sessions.get(args.root)).startTask(kind);
        const message = started
          ? `${kind} reindex started (task ${id}); follow it with index_status`
          : `a ${task.kind} reindex is already running (task ${id}, ${task.percent}%); follow it with index_status or stop it with index_cancel`;
        return answer({ started, state: task.state, kind: task.kind, taskId: id, message }, message);
      }),
    ),
  );

  server.registerTool(
    'index_cancel',
    {
      ...fromContract('index_cancel', { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }),
      outputSchema: { cancelled: z.boolean(), state: z.string(), taskId: z.string().nullable(), message: z.string() },
    },
    typed('index_cancel', (args) =>
      guarded(log, async () => {
        const tasks = args.task_id ? findTask(sessions, args.task_id).session.tasks : (await sessions.get(args.root)).tasks;
        const id = args.task_id ?? tasks.status()?.id ?? null;
        const cancelled = tasks.cancel(args.task_id);
        const state = (id && tasks.status(id)?.state) || 'idle';
        const message = cancelled
          ? `stopping task ${id} after its current batch; index_status shows when it has stopped`
          : args.task_id
            ? `task ${id} is not running (${state}): nothing to stop`
            : 'no reindex is running';
        return answer({ cancelled, state, taskId: id, message }, message);
      }),
    ),
  );
}

/** The task's snapshot once it ended, if it does within FIRST_LOOK_MS; else null (it is still running). */
async function firstLook(tasks: IndexTasks, start: TaskStart): Promise<IndexTaskSnapshot | null> {
  if (!start.started) return null;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), testSeams().firstLookMs ?? FIRST_LOOK_MS)));
  const ended = await Promise.race([tasks.settled().then(() => true), late]).finally(() => clearTimeout(timer));
  return ended ? tasks.status(start.id) : null;
}
