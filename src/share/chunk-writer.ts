import type { RecordBatch } from 'apache-arrow';
import type { ChunkStore } from '../store/chunk-store.js';

/**
 * Adds checked chunk batches to a store in groups of about `rowsPerWrite` rows, one LanceDB commit each (few
 * versions and fragments, bounded memory). A group is written while the caller reads and checks the next one;
 * writes run one at a time, in order, so a row repeated in a later group is found stored and skipped.
 */
export class ChunkWriter {
  private added = 0;
  private group: RecordBatch[] = [];
  private rows = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ChunkStore,
    private readonly rowsPerWrite: number,
  ) {}

  /** Returns at once unless a group is full and the previous write still runs; a failed write throws here. */
  async push(batch: RecordBatch): Promise<void> {
    this.group.push(batch);
    this.rows += batch.numRows;
    if (this.rows >= this.rowsPerWrite) await this.startWrite();
  }

  /** Writes what is left and returns how many rows were added in all. */
  async finish(): Promise<number> {
    await this.startWrite();
    await this.writing;
    return this.added;
  }

  /** Waits for a write under way, so its store can be closed or removed; its outcome no longer matters. */
  async settle(): Promise<void> {
    await this.writing.catch(() => undefined);
  }

  private async startWrite(): Promise<void> {
    if (this.group.length === 0) return;
    const group = this.group;
    this.group = [];
    this.rows = 0;
    await this.writing;
    this.writing = this.store.addChunkBatchesNotStored(group).then((n) => {
      this.added += n;
    });
    // Seen by the next push or finish; until then the failure must not count as unhandled.
    this.writing.catch(() => undefined);
  }
}
