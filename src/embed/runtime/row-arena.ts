import { RowSummer, tableMemory } from './row-sum.js';

/** Rows of a table read one at a time (static-encoder.ts's TableRows). */
interface RowSource {
  readonly rowCount: number;
  read(id: number, out: Float32Array): void;
}

/** Rows kept: 8,192 of 512 floats are 16 MB, a fifth of the default model's whole table. */
const ARENA_ROWS = 8192;

/**
 * The rows of a table read so far, kept in the row-summing kernel's memory (row-sum.ts), so an encoder that reads
 * rows one at a time (a query, the sample an import embeds again) sums them as fast, and exactly as, one over the
 * whole table: the JavaScript loop cost an import's sample ~0.14 s of its ~1,100 contents. Past ARENA_ROWS rows,
 * the last slot is read again for each row.
 */
export class RowArena {
  /** The rows held, by slot, and one scratch slot after them. */
  readonly table: Float32Array;
  /** The kernel over `table`, or null where it cannot run (the encoder sums in JavaScript then). */
  readonly summer: RowSummer | null;
  /** Row id → its slot + 1, or 0 when not held. */
  private readonly slots: Int32Array;
  private used = 0;

  constructor(
    private readonly rows: RowSource,
    private readonly dim: number,
    private readonly capacity = ARENA_ROWS,
  ) {
    const bytes = (capacity + 1) * dim * 4;
    const memory = tableMemory(bytes, dim, false);
    this.table = memory?.table ?? new Float32Array(bytes / 4);
    this.summer = memory && RowSummer.over(memory);
    this.slots = new Int32Array(rows.rowCount);
  }

  /** The slot holding row `id`, read now unless held; valid until the next call. */
  slot(id: number): number {
    const held = this.slots[id];
    if (held) return held - 1;
    const slot = Math.min(this.used, this.capacity);
    this.rows.read(id, this.table.subarray(slot * this.dim, (slot + 1) * this.dim));
    if (slot < this.capacity) this.slots[id] = ++this.used;
    return slot;
  }
}
