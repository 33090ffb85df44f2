import type { IndexProgress, IndexSummary } from '../index/indexer.js';

export type ReindexKind = 'incremental' | 'full';
export type ReindexState = 'idle' | 'running' | 'cancelling' | 'done' | 'failed' | 'cancelled';

/** What `index_status` shows of the background run: the current one, or the last one once it ended. */
export interface ReindexSnapshot {
  state: ReindexState;
  kind: ReindexKind | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** Share of the new blobs (file contents) already chunked and embedded, 0..100. */
  percent: number;
  files: { done: number; total: number };
  chunks: number;
  chunksPerSecond: number;
  errors: string[];
  summary: IndexSummary | null;
}

/** Thrown from the progress callback to stop the indexer between two durable writes. */
export class ReindexCancelled extends Error {
  constructor() {
    super('reindex cancelled');
  }
}

/**
 * One background index run at a time, started without waiting for it. Cancelling is cooperative: the indexer
 * reports progress after each durable group of chunks, and the next report throws, so what was stored stays
 * stored and the previous manifest stays searchable.
 */
export class ReindexJob {
  private snapshotNow: ReindexSnapshot = idle();
  private cancelRequested = false;
  private running: Promise<void> | null = null;

  get active(): boolean {
    return this.running !== null;
  }

  get kind(): ReindexKind | null {
    return this.active ? this.snapshotNow.kind : null;
  }

  snapshot(): ReindexSnapshot {
    return { ...this.snapshotNow, files: { ...this.snapshotNow.files }, errors: [...this.snapshotNow.errors] };
  }

  /** Starts `run` unless a run is active; `run` must report progress through the callback it is given. */
  start(kind: ReindexKind, run: (onProgress: (p: IndexProgress) => void) => Promise<IndexSummary>): boolean {
    if (this.running) return false;
    this.cancelRequested = false;
    this.snapshotNow = { ...idle(), state: 'running', kind, startedAt: new Date().toISOString() };
    this.running = run((p) => this.progress(p)).then(
      (summary) => this.finish('done', { summary, percent: 100, files: { done: summary.newBlobs, total: summary.newBlobs }, chunks: summary.chunksEmbedded }),
      (e: unknown) => (e instanceof ReindexCancelled ? this.finish('cancelled') : this.finish('failed', { errors: [(e as Error)?.message ?? String(e)] })),
    );
    return true;
  }

  /** Asks the active run to stop at its next progress report; false when nothing runs. */
  cancel(): boolean {
    if (!this.running) return false;
    this.cancelRequested = true;
    this.snapshotNow.state = 'cancelling';
    return true;
  }

  /** Resolves when the active run (if any) has ended. */
  async settled(): Promise<void> {
    await this.running;
  }

  private progress(p: IndexProgress): void {
    if (this.cancelRequested) throw new ReindexCancelled();
    Object.assign(this.snapshotNow, {
      percent: p.blobsTotal ? Math.round((100 * p.blobsDone) / p.blobsTotal) : 100,
      files: { done: p.blobsDone, total: p.blobsTotal },
      chunks: p.chunks,
      chunksPerSecond: Math.round(p.chunksPerSecond),
    });
  }

  private finish(state: ReindexState, extra: Partial<ReindexSnapshot> = {}): void {
    Object.assign(this.snapshotNow, { state, finishedAt: new Date().toISOString() }, extra);
    this.running = null;
  }
}

function idle(): ReindexSnapshot {
  return { state: 'idle', kind: null, startedAt: null, finishedAt: null, percent: 0, files: { done: 0, total: 0 }, chunks: 0, chunksPerSecond: 0, errors: [], summary: null };
}
