import type { IndexPhase, IndexProgress, IndexSummary } from '../index/indexer.js';
import { progressPercent } from '../index/progress.js';

export type ReindexKind = 'incremental' | 'full';
export type ReindexState = 'idle' | 'running' | 'cancelling' | 'done' | 'failed' | 'cancelled';

/**
 * What `index_status` shows of the background run: the current one, or the last one once it ended. A frozen
 * value: every change of the run's state is a new snapshot, so one handed out never changes under its holder.
 */
export interface ReindexSnapshot {
  readonly state: ReindexState;
  readonly kind: ReindexKind | null;
  /** What the run is doing now (listing, reading, chunking, embedding, writing, search-index); null before the first report. */
  readonly phase: IndexPhase | null;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  /** How far the run is, 0..100 (see progressPercent): moves with the files durably stored, never ahead of them. */
  readonly percent: number;
  readonly files: { readonly done: number; readonly total: number };
  readonly chunks: number;
  /** Chunks stored a second lately; null in a phase that stores none (listing, building the search indexes). */
  readonly chunksPerSecond: number | null;
  /** Seconds until the last file is stored at the recent rate; null when not known (nothing stored yet, other phases). */
  readonly secondsLeft: number | null;
  readonly errors: readonly string[];
  /** What the user should know though the run did not fail (it selected no files, say). */
  readonly warnings: readonly string[];
  readonly summary: IndexSummary | null;
}

/** The reason a cancelled run is aborted with: the indexer throws it back, and only it means "cancelled". */
export class ReindexCancelled extends Error {
  constructor() {
    super('reindex cancelled');
  }
}

/** How a run ended, as the snapshot's final state. */
export type ReindexOutcome = { state: 'done'; summary: IndexSummary } | { state: 'cancelled' } | { state: 'failed'; error: string; cause: unknown };

/** What a run is given: the signal to stop at, and where to report progress. */
export interface ReindexRun {
  signal: AbortSignal;
  onProgress: (p: IndexProgress) => void;
}

/**
 * One background index run at a time, started without waiting for it. Cancelling aborts the run's signal; the
 * indexer looks at it after each durable group of chunks, so what was stored stays stored and the previous
 * manifest stays searchable.
 */
export class ReindexJob {
  private snapshotNow = idle();

  /** `onChange` hears every new snapshot: a live progress bar follows the run through it. */
  constructor(private readonly onChange?: (snapshot: ReindexSnapshot) => void) {}

  private controller: AbortController | null = null;
  private running: Promise<ReindexOutcome> | null = null;

  get active(): boolean {
    return this.running !== null;
  }

  get kind(): ReindexKind | null {
    return this.active ? this.snapshotNow.kind : null;
  }

  snapshot(): ReindexSnapshot {
    return this.snapshotNow;
  }

  /** Starts `run` unless a run is active; `run` must pass the signal to the indexer and report progress. */
  start(kind: ReindexKind, run: (job: ReindexRun) => Promise<IndexSummary>): boolean {
    if (this.running) return false;
    const controller = new AbortController();
    this.controller = controller;
    this.update({ ...idle(), state: 'running', kind, startedAt: new Date().toISOString() });
    const { signal } = controller;
    this.running = outcomeOf(run({ signal, onProgress: (p) => this.progress(p, signal) }), signal).then((outcome) => this.finish(outcome));
    return true;
  }

  /** Asks the active run to stop after its current durable write; false when nothing runs. */
  cancel(): boolean {
    if (!this.running) return false;
    this.controller?.abort(new ReindexCancelled());
    this.update({ state: 'cancelling' });
    return true;
  }

  /** Resolves when the active run (if any) has ended, with how it ended. */
  async settled(): Promise<ReindexOutcome | undefined> {
    return (await this.running) ?? undefined;
  }

  private progress(p: IndexProgress, signal: AbortSignal): void {
    // The report that the indexer stops after is not shown: a cancelled run keeps the progress it had when asked.
    if (signal.aborted) return;
    this.update({
      phase: p.phase,
      ...(p.warnings ? { warnings: p.warnings } : {}),
      percent: progressPercent(p),
      files: { done: p.blobsDone, total: p.blobsTotal },
      chunks: p.chunks,
      chunksPerSecond: p.chunksPerSecond === null ? null : Math.round(p.chunksPerSecond),
      secondsLeft: p.secondsLeft ?? null,
    });
  }

  private finish(outcome: ReindexOutcome): ReindexOutcome {
    const extra: Partial<ReindexSnapshot> =
      outcome.state === 'done'
        ? { ...doneCounts(outcome.summary), summary: outcome.summary, warnings: outcome.summary.warnings ?? [], percent: 100, chunksPerSecond: null, secondsLeft: null }
        : outcome.state === 'failed'
          ? { errors: [outcome.error] }
          : {};
    this.update({ state: outcome.state, finishedAt: new Date().toISOString(), ...extra });
    this.running = null;
    this.controller = null;
    return outcome;
  }

  /** The snapshot with these fields changed, as a new frozen value. */
  private update(changes: Partial<ReindexSnapshot>): void {
    this.snapshotNow = frozen({ ...this.snapshotNow, ...changes });
    this.onChange?.(this.snapshotNow);
  }
}

/** A finished run shows what search sees now (the counts every surface shows), else what it stored itself. */
function doneCounts(summary: IndexSummary): Pick<ReindexSnapshot, 'files' | 'chunks'> {
  const { counts } = summary;
  return counts ? { files: { done: counts.files, total: counts.files }, chunks: counts.chunks } : { files: { done: summary.newBlobs, total: summary.newBlobs }, chunks: summary.chunksEmbedded };
}

function frozen(s: ReindexSnapshot): ReindexSnapshot {
  Object.freeze(s.files);
  Object.freeze(s.errors);
  Object.freeze(s.warnings);
  return Object.freeze(s);
}

/** A run's promise as an outcome that never rejects. */
async function outcomeOf(run: Promise<IndexSummary>, signal: AbortSignal): Promise<ReindexOutcome> {
  try {
    return { state: 'done', summary: await run };
  } catch (e) {
    // Only the abort's own reason means cancelled: a run that failed otherwise while stopping still failed.
    if (signal.aborted && e === signal.reason) return { state: 'cancelled' };
    return { state: 'failed', error: (e as Error)?.message ?? String(e), cause: e };
  }
}

/** The snapshot of a job that never ran. */
export function idle(): ReindexSnapshot {
  return frozen({ state: 'idle', kind: null, phase: null, startedAt: null, finishedAt: null, percent: 0, files: { done: 0, total: 0 }, chunks: 0, chunksPerSecond: null, secondsLeft: null, errors: [], warnings: [], summary: null });
}
