import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded } from './errors.js';
import { answer, rootArg } from './shared.js';
import { describeTask, findTask, taskIdArg, taskShape, toTaskView } from './task.js';
import type { IndexTasks, IndexTaskSnapshot, TaskStart, RepoSessions } from '../../workspace/live.js';

const INDEX = `Start indexing the repository in the background and return at once with a task id; follow it with index_status {task_id}, stop it with index_cancel {task_id}. One run at a time per repository: while one runs, you get its id back.
Rarely needed: search_code updates the index itself when HEAD moved. Use it after a large change you want indexed ahead of time, or with full=true to rebuild from scratch when index_status or an error says the index is damaged or was built with another model (a full rebuild makes search unavailable until it finishes).`;

const REINDEX = `The same as index_codebase, for older clients: start updating the code index in the background and return at once; follow progress with index_status, stop it with index_cancel.`;

const CANCEL = `Stop an index task (by task_id; without one, the running task). Work already stored is kept and the previous index stays searchable; the next search or index run finishes the job incrementally.`;

/** How long index_codebase waits for a run that ends at once (nothing to do, no file selected), to say so in its reply. */
const FIRST_LOOK_MS = 60;

const fullArg = z.boolean().default(false).describe('drop the index and embed everything again (slow); default: only what changed');

export function registerReindex(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'index_codebase',
    {
      title: 'Index the codebase (background task)',
      description: INDEX,
      inputSchema: { full: fullArg, root: rootArg },
      outputSchema: { taskId: z.string(), started: z.boolean(), message: z.string(), task: taskShape },
      annotations: { title: 'Index the codebase (background task)', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const start = await session.startTask(args.full ? 'full' : 'incremental');
        const task = toTaskView((await firstLook(session.tasks, start)) ?? start.task);
        const message = `${start.message}; follow it with index_status {"task_id":"${start.id}"}`;
        return answer({ taskId: start.id, started: start.started, message, task }, `${message}\n${task.root}: ${describeTask(task)}`);
      }),
  );

  server.registerTool(
    'reindex',
    {
      title: 'Reindex in the background',
      description: REINDEX,
      inputSchema: { full: fullArg, root: rootArg },
      outputSchema: { started: z.boolean(), state: z.string(), kind: z.enum(['incremental', 'full']).nullable(), taskId: z.string(), message: z.string() },
      annotations: { title: 'Reindex in the background', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(log, async () => {
        const kind = args.full ? 'full' : 'incremental';
        const { started, id, task } = await (await sessions.get(args.root)).startTask(kind);
        const message = started
          ? `${kind} reindex started (task ${id}); follow it with index_status`
          : `a ${task.kind} reindex is already running (task ${id}, ${task.percent}%); follow it with index_status or stop it with index_cancel`;
        return answer({ started, state: task.state, kind: task.kind, taskId: id, message }, message);
      }),
  );

  server.registerTool(
    'index_cancel',
    {
      title: 'Cancel an index task',
      description: CANCEL,
      inputSchema: { task_id: taskIdArg.optional().describe('the task to stop (index_codebase returns its id); default: the running one'), root: rootArg },
      outputSchema: { cancelled: z.boolean(), state: z.string(), taskId: z.string().nullable(), message: z.string() },
      annotations: { title: 'Cancel an index task', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
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
  );
}

/** The task's snapshot once it ended, if it does within FIRST_LOOK_MS; else null (it is still running). */
async function firstLook(tasks: IndexTasks, start: TaskStart): Promise<IndexTaskSnapshot | null> {
  if (!start.started) return null;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), FIRST_LOOK_MS)));
  const ended = await Promise.race([tasks.settled().then(() => true), late]).finally(() => clearTimeout(timer));
  return ended ? tasks.status(start.id) : null;
}
