import { randomBytes } from 'node:crypto';
import type { IndexSummary } from '../index/indexer.js';
import { ReindexJob, type ReindexKind, type ReindexOutcome, type ReindexRun, type ReindexSnapshot } from './reindex-job.js';

export type IndexTaskKind = ReindexKind;

/** A task as every surface shows it: the run's frozen snapshot, named by its id and the repository it indexes. */
export interface IndexTaskSnapshot extends ReindexSnapshot {
  readonly id: string;
  /** The repository (or folder) the task indexes: ids stay meaningful when one server serves several. */
  readonly root: string;
}

/** What `start` did: started a task, or found one running and handed back its id instead. */
export interface TaskStart {
  readonly id: string;
  readonly started: boolean;
  readonly message: string;
  readonly task: IndexTaskSnapshot;
}

export type TaskListener = (task: IndexTaskSnapshot) => void;

/** Runs one index run: passes `run.signal` to the indexer and reports its progress to `run.onProgress`; `run.id` names it to other processes. */
export type IndexRunner = (kind: IndexTaskKind, run: ReindexRun & { id: string }) => Promise<IndexSummary>;

/** The run another process of this machine is doing on the repository now (service/run-record.ts), or null. */
export type RunElsewhere = () => (Omit<IndexTaskSnapshot, 'root'> & { pid: number }) | null;

/** How often a follower of the tasks (the panel's live bar) looks at another process's run. */
const ELSEWHERE_POLL_MS = 500;

const ENDED = new Set<ReindexSnapshot['state']>(['done', 'failed', 'cancelled']);

/** Ended tasks kept addressable by id; older ones are forgotten (a status of them says "unknown task"). */
const KEPT_TASKS = 20;

/**
 * The index runs of one repository, as tasks with ids: started without waiting, one at a time (starting while one
 * runs hands back the running one), each followed through frozen snapshots, cancelled by id. Every surface of a
 * server (MCP tools, the web panel) shares one per repository, so they all see the same task.
 */
export class IndexTasks {
  private readonly jobs = new Map<string, ReindexJob>();
  private currentId: string | null = null;
  private lastId: string | null = null;
  private readonly listeners = new Set<TaskListener>();
  /** Another process's run as last seen, so that its id still answers once it has ended. */
  private seenElsewhere: IndexTaskSnapshot | null = null;
  private polling: NodeJS.Timeout | null = null;

  constructor(
    readonly root: string,
    private readonly runner: IndexRunner,
    private readonly elsewhere: RunElsewhere = () => null,
  ) {}

  /** Whether a task is running (or stopping) now. */
  get active(): boolean {
    return this.currentId !== null;
  }

  /** Starts an index run in the background and returns at once; while one runs, returns that one's id. */
  start(kind: IndexTaskKind): TaskStart {
    if (this.currentId) {
      const task = this.status(this.currentId)!;
      return { id: task.id, started: false, message: `a ${task.kind} index run is already running (task ${task.id}, ${task.percent}%)`, task };
    }
    const other = this.runElsewhere();
    if (other) return { id: other.id, started: false, message: `a ${other.kind} index run of another ocrag process is running (task ${other.id}, ${other.percent}%): following it`, task: other };
    const id = newTaskId();
    const job = new ReindexJob((snapshot) => this.tell(id, snapshot));
    this.jobs.set(id, job);
    this.currentId = this.lastId = id;
    this.forgetOld();
    job.start(kind, (run) => this.runner(kind, { ...run, id }));
    return { id, started: true, message: `${kind} index run started (task ${id})`, task: this.status(id)! };
  }

  /** The task's snapshot; without an id the running task, else the last one; null when unknown (or none ran). */
  status(id?: string): IndexTaskSnapshot | null {
    if (!this.currentId && (id === undefined || !this.jobs.has(id))) {
      const other = this.runElsewhere();
      if (other && (id === undefined || id === other.id)) return other;
      if (id !== undefined && id === this.seenElsewhere?.id) return this.seenElsewhere;
    }
    const key = id ?? this.currentId ?? this.lastId;
    const job = key ? this.jobs.get(key) : undefined;
    return job && key ? withId(key, this.root, job.snapshot()) : null;
  }

  /** Asks the task (without an id: the running one) to stop after its current durable write; false when it is not running. */
  cancel(id?: string): boolean {
    const key = id ?? this.currentId;
    return key !== null && key === this.currentId && (this.jobs.get(key)?.cancel() ?? false);
  }

  /** Calls `listener` with every new snapshot of every task until the returned function is called. */
  subscribe(listener: TaskListener): () => void {
    this.listeners.add(listener);
    this.polling ??= setInterval(() => this.followElsewhere(), ELSEWHERE_POLL_MS).unref();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.polling) (clearInterval(this.polling), (this.polling = null));
    };
  }

  /**
   * Another process's run, while this process runs none: as a running task of its id. Once it is gone its last
   * snapshot stays answerable, ended; how it ended is that process's to say (its output, `.ocrag/log` for a hook).
   */
  private runElsewhere(): IndexTaskSnapshot | null {
    const seen = this.elsewhere();
    if (seen) {
      const { pid, ...snapshot } = seen;
      this.seenElsewhere = Object.freeze({ ...snapshot, root: this.root, warnings: [`run by another ocrag process (pid ${pid})`] });
      return this.seenElsewhere;
    }
    if (this.seenElsewhere?.state === 'running') {
      const { warnings } = this.seenElsewhere;
      this.seenElsewhere = Object.freeze({ ...this.seenElsewhere, state: 'done', percent: 100, finishedAt: new Date().toISOString(), warnings: [...warnings, 'ended in that process, which reports how'] });
    }
    return null;
  }

  /** Tells the followers each change of another process's run. */
  private followElsewhere(): void {
    if (this.currentId) return;
    const before = this.seenElsewhere;
    const now = this.runElsewhere() ?? this.seenElsewhere;
    if (now && now !== before && JSON.stringify(now) !== JSON.stringify(before)) this.tellAll(now);
  }

  /** Resolves when the running task (if any) has ended, with how it ended. */
  async settled(): Promise<ReindexOutcome | undefined> {
    const job = this.currentId ? this.jobs.get(this.currentId) : undefined;
    return job?.settled();
  }

  private tell(id: string, snapshot: ReindexSnapshot): void {
    // The final snapshot is made before the job lets go of its run: whoever hears it may start the next task.
    if (id === this.currentId && ENDED.has(snapshot.state)) this.currentId = null;
    if (this.listeners.size === 0) return;
    this.tellAll(withId(id, this.root, snapshot));
  }

  private tellAll(task: IndexTaskSnapshot): void {
    for (const listener of this.listeners) {
      try {
        listener(task);
      } catch {
        // A listener's failure (a closed browser tab) is its own: the run and the other listeners go on.
      }
    }
  }

  private forgetOld(): void {
    for (const id of this.jobs.keys()) {
      if (this.jobs.size <= KEPT_TASKS) break;
      if (id !== this.currentId) this.jobs.delete(id);
    }
  }
}

/** 12 hex digits (48 random bits): not guessable by a client that did not start the task, and short to quote. */
function newTaskId(): string {
  return randomBytes(6).toString('hex');
}

function withId(id: string, root: string, snapshot: ReindexSnapshot): IndexTaskSnapshot {
  return Object.freeze({ id, root, ...snapshot });
}
