import type { IndexContext } from '../index/index-context.js';
import type { CodeIndex } from '../service/code-index.js';
import { indexStatus, type IndexStatus } from '../service/status.js';
import type { IndexTasks, IndexTaskSnapshot } from './index-tasks.js';
import type { QueryCache } from './query-cache.js';
import type { ReindexSnapshot } from './reindex-job.js';

export interface SessionStatus {
  status: IndexStatus | null;
  /** Why the index could not be read (a full rebuild is replacing it, say). */
  statusError: string | null;
  head: { branch: string | null; commit: string | null };
  uncommittedChanges: number | null;
  reindex: ReindexSnapshot;
  /** The running task, else the last one; null when none ran. */
  task: IndexTaskSnapshot | null;
  queryCache: { entries: number; hits: number; misses: number };
}

/** A read-only report; never waits for a running reindex, never moves the index's idea of HEAD under it. */
export async function sessionStatus(index: CodeIndex, tasks: IndexTasks, reindex: ReindexSnapshot, cache: QueryCache | null): Promise<SessionStatus> {
  const head = await index.ctx.kind.headNow(index.ctx);
  let status: IndexStatus | null = null;
  let statusError: string | null = null;
  try {
    status = await indexStatus({ ...index.ctx, head });
  } catch (e) {
    statusError = (e as Error).message;
  }
  const changes = await uncommittedChanges(index.ctx);
  return {
    status,
    statusError,
    head: { branch: head.branch, commit: head.commit },
    uncommittedChanges: changes,
    reindex,
    task: tasks.status(),
    queryCache: { entries: cache?.size ?? 0, hits: cache?.hits ?? 0, misses: cache?.misses ?? 0 },
  };
}

/** Uncommitted edits and untracked files a view lays over HEAD's index; null where there is no git to ask. */
function uncommittedChanges(ctx: IndexContext): Promise<number | null> {
  const changes = ctx.kind.workingChanges(ctx);
  return changes ? changes.then((c) => c.length, () => null) : Promise.resolve(null);
}
