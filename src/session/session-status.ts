import type { HeadSnapshot } from '../git/repo.js';
import type { IndexContext } from '../index/index-context.js';
import type { CodeIndex } from '../service/code-index.js';
import { indexStatus, type IndexStatus } from '../service/status.js';
import type { IndexTasks, IndexTaskSnapshot } from './index-tasks.js';
import type { QueryCache } from './query-cache.js';
import { idle, type ReindexSnapshot } from './reindex-job.js';
import { stateSignature, type StateSignature } from './state-signature.js';

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

/** What the status reads from git and the index on disk: all of it but the tasks and the query cache. */
type IndexPart = Pick<SessionStatus, 'status' | 'statusError' | 'head' | 'uncommittedChanges'>;

/**
 * A session's status reports. A read-only report; never waits for a running reindex, never moves the index's idea
 * of HEAD under it. With no run going on every report is read afresh; during one, the index part is reused while
 * HEAD, the config and the index files are unchanged, so a poll answers from memory: read afresh it took 0.7 to
 * 5 s mid-run (1,000 files, two busy cores), and its four git processes held the run's thread as long, as each
 * spawn forks a process of the run's size. Nothing it shows of the index changes mid-run but the store's total of
 * chunks: the manifest is written at the end, which changes the state and ends the reuse.
 */
export class SessionStatusReader {
  private kept: { state: StateSignature; part: Promise<ReadPart> } | null = null;
  private refreshing: Promise<ReadPart> | null = null;

  async read(index: CodeIndex, tasks: IndexTasks, cache: QueryCache | null): Promise<SessionStatus> {
    // Read once: asking again re-reads another process's run record and the lock, and may see that run end between.
    const task = tasks.status();
    const running = task !== null && (task.state === 'running' || task.state === 'cancelling');
    return {
      ...(await this.indexPart(index, running)).part,
      reindex: task ?? idle(),
      task,
      queryCache: { entries: cache?.size ?? 0, hits: cache?.hits ?? 0, misses: cache?.misses ?? 0 },
    };
  }

  private indexPart(index: CodeIndex, running: boolean): Promise<ReadPart> {
    const state = stateSignature(index.ctx);
    const kept = this.kept;
    if (running && state !== null && kept) {
      // The run's last steps (a rebuild's swap, the manifest) change the state before it ends: read the new one
      // beside, answering from the last meanwhile. HEAD and the work tree are taken as kept while HEAD's files are
      // unchanged: git's processes forked from the run's process held its thread 30 ms of CPU each, polls waiting.
      if (!sameState(kept.state, state) && !this.refreshing) {
        const part = (this.refreshing = kept.state.source === state.source ? kept.part.then((last) => readIndexPart(index, last)) : readIndexPart(index));
        part.then(() => (this.kept = { state, part }), () => undefined).finally(() => (this.refreshing = null));
      }
      return kept.part;
    }
    const part = readIndexPart(index);
    this.kept = state === null ? null : { state, part };
    return part;
  }
}

const sameState = (a: StateSignature, b: StateSignature) => a.source === b.source && a.index === b.index;

/** The index part, and HEAD as it was read for it. */
interface ReadPart {
  part: IndexPart;
  head: HeadSnapshot;
}

/** Reads the index part; HEAD and the count of uncommitted changes are `last`'s when given, else asked of git. */
async function readIndexPart(index: CodeIndex, last?: ReadPart): Promise<ReadPart> {
  const head = last?.head ?? (await index.ctx.kind.headNow(index.ctx));
  let status: IndexStatus | null = null;
  let statusError: string | null = null;
  try {
    status = await indexStatus({ ...index.ctx, head });
  } catch (e) {
    statusError = (e as Error).message;
  }
  const changes = last ? last.part.uncommittedChanges : await uncommittedChanges(index.ctx);
  return { part: { status, statusError, head: { branch: head.branch, commit: head.commit }, uncommittedChanges: changes }, head };
}

/** Uncommitted edits and untracked files a view lays over HEAD's index; null where there is no git to ask. */
function uncommittedChanges(ctx: IndexContext): Promise<number | null> {
  const changes = ctx.kind.workingChanges(ctx);
  return changes ? changes.then((c) => c.length, () => null) : Promise.resolve(null);
}
