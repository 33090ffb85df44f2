import { compiledOrNull, F64, get, I32, kernelModuleBytes, MEMORY_IMPORT, set, simd, V128 } from '../../util/wasm-kernel.js';

/**
 * Summing token rows is most of an encoder's time (tokio: 790,000 rows of 512 floats, 0.75 s of the 1.0 s its
 * 14,800 chunks take; the tokenizer the rest). A small WebAssembly kernel adds a row two doubles at a time: every
 * lane does the JavaScript loop's exact operations (float32 widened to double, times the count, added to the sum;
 * WebAssembly never fuses a multiply into an add), so the sums, and the vectors, are bit for bit the same.
 * The table lives in the kernel's memory, shared with the workers, with a scratch sum for each encoder after it.
 */

/** Memory the kernel reads: the table at offset 0, then the slot counter, then one scratch sum per encoder. */
export interface TableMemory {
  readonly memory: WebAssembly.Memory;
  readonly table: Float32Array;
  readonly dim: number;
}

/**
 * Scratch sums in one table's memory: the calling thread's encoder and a worker pool's (`defaultThreadCount` gives
 * at most 2; OCRAG_EMBED_THREADS may ask more). An encoder that finds none left sums in JavaScript, as before.
 */
const SLOTS = 16;
const PAGE_BYTES = 65536;
/** Bytes the slot counter takes: a 16-byte step keeps every scratch sum aligned for the kernel's loads. */
const COUNTER_BYTES = 16;

/** `add(sum, row, count, end)`: sum[i] += count * row[i] for the float32s from byte `row` to `end`, sum holding doubles. */
function kernelBytes(shared: boolean): Uint8Array<ArrayBuffer> {
  const [sum, row, count, end, scale, four] = [0, 1, 2, 3, 4, 5];
  // One half of the four floats: the sum's two doubles at `offset` plus the two floats widened, times the count.
  const half = (offset: number, swap: boolean) => [
    ...get(sum),
    ...get(sum), ...simd(0x00, 0x03, offset), // v128.load
    ...get(four),
    ...(swap ? [...get(four), ...simd(0x0d, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7)] : []), // i8x16.shuffle: high floats low
    ...simd(0x5f), // f64x2.promote_low_f32x4
    ...get(scale), ...simd(0xf2), // f64x2.mul
    ...simd(0xf0), // f64x2.add
    ...simd(0x0b, 0x03, offset), // v128.store
  ];
  const body = [
    ...get(count), ...simd(0x14), ...set(scale), // f64x2.splat
    0x02, 0x40, 0x03, 0x40, // block, loop
    ...get(row), ...get(end), 0x4f, 0x0d, 0x01, // i32.ge_u, br_if out
    ...get(row), ...simd(0x00, 0x02, 0x00), ...set(four),
    ...half(0, false),
    ...half(16, true),
    ...get(row), 0x41, 16, 0x6a, ...set(row),
    ...get(sum), 0x41, 32, 0x6a, ...set(sum),
    0x0c, 0x00, 0x0b, 0x0b, 0x0b, // br loop, end, end, end
  ];
  // The memory import: at least one page, at most 65,536, shared or not as the memory made for it.
  return kernelModuleBytes({ name: 'add', params: [I32, I32, F64, I32], locals: [[2, V128]], body, memory: { shared, maximum: 65536 } });
}

const kernels = new Map<boolean, WebAssembly.Module | null>();

/** Compiled once for each kind of memory; null where WebAssembly SIMD is missing (JavaScript sums then). */
function kernel(shared: boolean): WebAssembly.Module | null {
  if (!kernels.has(shared)) kernels.set(shared, compiledOrNull(() => kernelBytes(shared)));
  return kernels.get(shared)!;
}

const align16 = (n: number) => Math.ceil(n / 16) * 16;

/** Memory for a table of `bytes` (read into `table` by the caller), or null where the kernel cannot run. */
export function tableMemory(bytes: number, dim: number, shared: boolean): TableMemory | null {
  if (dim % 4 !== 0 || !kernel(shared)) return null;
  const total = align16(bytes) + COUNTER_BYTES + SLOTS * dim * 8;
  const pages = Math.ceil(total / PAGE_BYTES);
  if (pages > 65536) return null;
  try {
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, ...(shared ? { shared: true } : {}) });
    return { memory, table: new Float32Array(memory.buffer, 0, bytes / 4), dim };
  } catch {
    return null;
  }
}

/** One encoder's scratch sum in a table's memory and the kernel that adds rows to it. */
export class RowSummer {
  /** The sum, as doubles: `add` adds to it, the encoder reads and clears it. */
  readonly sum: Float64Array;
  private readonly add: (sum: number, row: number, count: number, end: number) => void;
  private readonly rowBytes: number;
  private readonly sumOffset: number;

  private constructor(memory: WebAssembly.Memory, module: WebAssembly.Module, sumOffset: number, dim: number) {
    const instance = new WebAssembly.Instance(module, { [MEMORY_IMPORT]: { memory } });
    this.add = instance.exports.add as RowSummer['add'];
    this.sum = new Float64Array(memory.buffer, sumOffset, dim);
    this.sumOffset = sumOffset;
    this.rowBytes = dim * 4;
  }

  /** A summer over this table's memory, or null when its scratch sums are all taken or the kernel cannot run. */
  static over(from: TableMemory): RowSummer | null {
    const shared = from.memory.buffer instanceof SharedArrayBuffer;
    const module = kernel(shared);
    if (!module) return null;
    const counter = align16(from.table.byteLength);
    const slot = Atomics.add(new Int32Array(from.memory.buffer, counter, 1), 0, 1);
    if (slot >= SLOTS) return null;
    return new RowSummer(from.memory, module, counter + COUNTER_BYTES + slot * from.dim * 8, from.dim);
  }

  /** sum += count × row `id` of the table. */
  addRow(id: number, count: number): void {
    const row = id * this.rowBytes;
    this.add(this.sumOffset, row, count, row + this.rowBytes);
  }
}
