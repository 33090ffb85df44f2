import type { ChunkBatch, ContentStore } from '../store/contract.js';

export interface ChunkWriterOptions {
  /** A write takes at most about this many rows (one LanceDB commit each); a caller ahead by more waits. */
  maxRowsPerWrite: number;
  /** The store holds only what this writer adds (a store being built): stored ids are known without asking it. */
  newStore?: boolean;
}

/** Writes at once into a store being built: one's encoding (on the main thread) overlaps the other's native work. */
const NEW_STORE_WRITES_AT_ONCE = 2;

/**
 * Adds checked chunk batches to a store behind the caller: a write takes every batch queued while the previous
 * one ran, so writing keeps pace with reading the artifact and the caller waits only when a full write's worth is
 * queued. A write takes at least a quarter of the rows added so far (and 1/16 of the most), so a long artifact
 * still makes few commits (about 20 for 100,000 rows) while the last write, after the reading ends, stays short.
 * Into an existing store writes run one at a time, in order, so a row repeated later is found stored; into a new
 * store two run at once (its ids are tracked here, so a repeated row is still caught).
 */
export class ChunkWriter {
  private added = 0;
  private queued: ChunkBatch[] = [];
  private queuedRows = 0;
  private running = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;
  private waitingForRoom: (() => void)[] = [];
  private readonly firstWriteRows: number;
  private readonly writesAtOnce: number;
  private minRowsPerWrite: number;
  private finishing = false;
  /** Ids added so far, when `newStore`. */
  private readonly ids: Set<string> | null;

  constructor(
    private readonly store: ContentStore,
    private readonly opts: ChunkWriterOptions,
  ) {
    this.ids = opts.newStore ? new Set() : null;
    this.writesAtOnce = opts.newStore ? NEW_STORE_WRITES_AT_ONCE : 1;
    this.firstWriteRows = Math.max(1, Math.floor(opts.maxRowsPerWrite / 16));
    this.minRowsPerWrite = this.firstWriteRows;
  }

  /** Returns at once unless a full write is queued already; a failed write throws here or in finish(). */
  async push(batch: ChunkBatch): Promise<void> {
    this.throwIfFailed();
    this.queued.push(batch);
    this.queuedRows += batch.numRows;
    this.startWriting();
    if (this.queuedRows >= this.opts.maxRowsPerWrite) await new Promise<void>((resolve) => this.waitingForRoom.push(resolve));
    this.throwIfFailed();
  }

  /** Waits for the last write and returns how many rows were added in all. */
  async finish(): Promise<number> {
    this.finishing = true;
    this.startWriting();
    await this.settle();
    this.throwIfFailed();
    return this.added;
  }

  /** Waits until no write runs, so the store can be closed or removed; a failure is kept for finish(). */
  async settle(): Promise<void> {
    while (this.running.size) await Promise.all(this.running);
  }

  private ready(): boolean {
    return !this.failure && this.queued.length > 0 && (this.finishing || this.queuedRows >= this.minRowsPerWrite);
  }

  private startWriting(): void {
    while (this.running.size < this.writesAtOnce && this.ready()) {
      const group = this.queued;
      this.queued = [];
      this.queuedRows = 0;
      this.makeRoom();
      const running: Promise<void> = this.writeGroup(group).finally(() => {
        this.running.delete(running);
        this.startWriting();
        this.makeRoom();
      });
      this.running.add(running);
    }
  }

  private async writeGroup(group: ChunkBatch[]): Promise<void> {
    try {
      // Not `this.added += await …`: that reads `added` before the wait, losing what a write beside it added.
      const added = await this.write(group);
      this.added += added;
      this.minRowsPerWrite = Math.min(Math.max(this.firstWriteRows, Math.floor(this.added / 4)), this.opts.maxRowsPerWrite);
    } catch (error) {
      this.failure ??= { error };
      this.queued = [];
    }
  }

  private write(group: ChunkBatch[]): Promise<number> {
    return this.ids ? this.store.addChunkBatchesToNewTable(group, this.ids) : this.store.addChunkBatchesNotStored(group);
  }

  private makeRoom(): void {
    for (const resolve of this.waitingForRoom.splice(0)) resolve();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
