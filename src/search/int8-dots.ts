/**
 * Dot products of int8 chunk vectors with a float query, the resident search's largest cost per query (a whole
 * view's cosines: tokio's 14,800 chunks of 512 dimensions took 7–9 ms of a 12 ms search in JavaScript). This does
 * the same arithmetic in WebAssembly SIMD, two chunks at a time, and gives bit for bit the same sums: each chunk
 * keeps the four accumulators of the JavaScript loop (dimension d is added to sum d mod 4, in order of d), every
 * product int8 × float32 is exact in a double, and the four sums are added in the same order. Only the order in
 * which the machine waits for additions changes (two chunks' chains interleave), never what is added to what.
 * Measured on 2 loaded cores over 14,801 random rows of 512: 8.5–14 ms of CPU per query in JavaScript, 2.6–3.1 ms here.
 */
import { compiledOrNull, get, I32, i32, kernelModuleBytes, memarg, MEMORY_IMPORT, set, simd, tee, V128 } from '../util/wasm-kernel.js';
import { limbBytes, limbKernelBytes, queryLimbs } from './int8-limb-dots.js';

/** The sums of one chunk's products, added as the JavaScript loop adds them. */
export type DotSums = (query: Float64Array, vectors: Int8Array, rows: number, chunks: Int32Array) => Float64Array;

/** Below this many chunks, the copy into WebAssembly memory is not worth it (a large view's few candidates). */
export const KERNEL_MIN_CHUNKS = 1024;

const PAGE = 65_536;

/** The kernel's two functions, instantiated over one memory. */
interface Kernels {
  memory: WebAssembly.Memory;
  dots: (vec: number, q: number, idx: number, out: number, n: number, dim: number) => void;
  limbDots: ((vec: number, limbs: number, idx: number, out: number, n: number, dim: number, unit: number) => void) | null;
}

function instantiate(module: WebAssembly.Module, memory: WebAssembly.Memory): Kernels {
  const dots = new WebAssembly.Instance(module, { [MEMORY_IMPORT]: { memory } }).exports.dots as Kernels['dots'];
  const limbModule = limbKernel();
  const limbDots = limbModule && (new WebAssembly.Instance(limbModule, { [MEMORY_IMPORT]: { memory } }).exports.ldots as NonNullable<Kernels['limbDots']>);
  return { memory, dots, limbDots };
}

/** Where the query, the chunk indices and the sums of `n` chunks go, after `base` bytes of memory in use. */
function scratchAfter(base: number, n: number, dim: number): { q: number; idx: number; out: number; end: number } {
  const q = align(base, 16);
  // Room for the float query (dim doubles), which also holds its limbs (6 bytes a dimension).
  const idx = q + Math.max(dim * 8, limbBytes(dim));
  const out = align(idx + n * 4, 8);
  return { q, idx, out, end: out + n * 8 };
}

/** A restored set's vectors read straight into WebAssembly memory (vectorsBlock), by that memory's buffer. */
interface Placement {
  memory: WebAssembly.Memory;
  /** Where the file's bytes end, the vectors last among them: rows appended to the set go on from here (`vectorsInRoom`). */
  filled: number;
  /** Where the room for appended rows ends: the kernel's scratch begins here. */
  used: number;
  kernels?: Kernels;
}
const placements = new WeakMap<ArrayBuffer, Placement>();

/**
 * The buffer to read a snapshot's `bytes` of eager sections into, which hold `rows` vectors of `dim`, the vectors
 * last: a WebAssembly memory's, with room after them for `room` more rows (its segments', appended in place by
 * `vectorsInRoom`) and then for the kernel's scratch over all of them, so the kernel reads the vectors where the file
 * put them and never grows the memory (which would cut every section off its bytes). Copying tokio's 7.5 MB of
 * vectors into the kernel's own memory, fresh pages, was 4-17 ms of a one-shot search; growing them into a new array
 * for three commits' segment rows, then copying that, 13-35 ms. A plain buffer where the kernel is not used or
 * WebAssembly SIMD is missing.
 */
export function vectorsBlock(bytes: number, rows: number, dim: number, room = 0): ArrayBuffer {
  const module = Number.isInteger(dim) && dim > 0 && dim % 8 === 0 && Number.isInteger(rows) && rows >= KERNEL_MIN_CHUNKS ? kernelModule() : null;
  if (!module) return new ArrayBuffer(bytes);
  try {
    const used = bytes + room * dim;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(scratchAfter(used, rows + room, dim).end / PAGE) });
    placements.set(memory.buffer, { memory, filled: bytes, used });
    return memory.buffer;
  } catch {
    // More than WebAssembly memory holds (a damaged header's count, say): the sections are read as ever.
    return new ArrayBuffer(bytes);
  }
}

/**
 * The vectors of a set restored by vectorsBlock, as a view reaching over all the room left after them, in the same
 * memory (its bytes zero, untouched but by rows appended): null when they do not lie there or no room is left.
 */
export function vectorsInRoom(vectors: Int8Array, dim: number): Int8Array | null {
  const placed = placements.get(vectors.buffer as ArrayBuffer);
  if (!placed || placed.memory.buffer !== vectors.buffer) return null;
  const end = vectors.byteOffset + vectors.length;
  // The snapshot's vectors (ending where the file's bytes do), or a view of them this gave before.
  if (vectors.byteOffset >= placed.filled || end < placed.filled || end > placed.used) return null;
  const length = Math.floor((placed.used - vectors.byteOffset) / dim) * dim;
  return length > vectors.length ? new Int8Array(vectors.buffer, vectors.byteOffset, length) : null;
}

/**
 * A kernel over one resident set's vectors: read in place when they lie in a memory of vectorsBlock's, else copied
 * once into its own memory, new rows as they come.
 */
export function int8DotKernel(dim: number): DotSums | null {
  if (dim % 8 !== 0 || dim === 0) return null;
  const module = kernelModule();
  if (!module) return null;
  let own: Kernels | null = null;
  let source: Int8Array | null = null;
  let copied = 0;
  return (query, vectors, rows, chunks) => {
    const placed = placements.get(vectors.buffer as ArrayBuffer);
    if (placed && placed.memory.buffer === vectors.buffer && vectors.byteOffset + rows * dim <= placed.used) {
      const at = scratchAfter(placed.used, chunks.length, dim);
      if (at.end <= placed.memory.buffer.byteLength) return sums((placed.kernels ??= instantiate(module, placed.memory)), vectors.byteOffset, at, query, chunks);
    }
    own ??= instantiate(module, new WebAssembly.Memory({ initial: 1 }));
    // A set's vectors only grow by rows appended (resident-index.ts); a new array (grown, restored) is copied afresh.
    if (vectors !== source) [source, copied] = [vectors, 0];
    const vecBytes = rows * dim;
    const at = scratchAfter(vecBytes, chunks.length, dim);
    if (at.end > own.memory.buffer.byteLength) own.memory.grow(Math.ceil((at.end - own.memory.buffer.byteLength) / PAGE));
    if (copied < rows) new Int8Array(own.memory.buffer).set(vectors.subarray(copied * dim, vecBytes), copied * dim);
    copied = rows;
    return sums(own, 0, at, query, chunks);
  };

  function sums(k: Kernels, vec: number, at: { q: number; idx: number; out: number }, query: Float64Array, chunks: Int32Array): Float64Array {
    const buffer = k.memory.buffer;
    new Int32Array(buffer, at.idx, chunks.length).set(chunks);
    const limbs = k.limbDots && queryLimbs(query);
    if (limbs) {
      new Int16Array(buffer, at.q, limbs.limbs.length).set(limbs.limbs);
      k.limbDots!(vec, at.q, at.idx, at.out, chunks.length, dim, limbs.unit);
    } else {
      new Float64Array(buffer, at.q, dim).set(query);
      k.dots(vec, at.q, at.idx, at.out, chunks.length, dim);
    }
    return new Float64Array(buffer, at.out, chunks.length);
  }
}

const align = (n: number, to: number) => Math.ceil(n / to) * to;

let compiled: WebAssembly.Module | null | undefined;
let compiledLimbs: WebAssembly.Module | null | undefined;

/** The integer kernel (int8-limb-dots.ts), compiled once; null where it cannot be. */
function limbKernel(): WebAssembly.Module | null {
  if (compiledLimbs === undefined) compiledLimbs = compiledOrNull(limbKernelBytes);
  return compiledLimbs;
}

/** The module, compiled once; null where WebAssembly SIMD is missing (the JavaScript loop answers then). */
function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) compiled = compiledOrNull(kernelBytes);
  return compiled;
}

// The module, written out: one function `dots(vec, q, idx, out, n, dim)` over an imported memory. For each pair of
// chunks j, j+1 (n even; an odd last one is the caller's), out[j] = ((s0 + s1) + s2) + s3, with s_k = Σ over d ≡ k
// (mod 4), in order of d, of vec[idx[j] * dim + d] × q[d] (q: dim doubles, the float32 query widened exactly).
const [VEC, Q, IDX, OUT, N, DIM, J, P, P2, END, QP, A, B, C, D, X, L, Q0, Q1, Q2, Q3] = Array.from({ length: 21 }, (_, i) => i);
const mem = (offset: number) => memarg(0, offset);
const [ADD, SHL, MUL, LT_U, GE_U, LOAD, F64_STORE, F64_ADD] = [[0x6a], [0x74], [0x6c], [0x49], [0x4f], [0x28], [0x39], [0xa0]];
const V128_LOAD = (offset: number) => simd(0x00, ...mem(offset));
const LOAD8X8_S = simd(0x01, ...mem(0));
const ZERO = simd(0x0c, ...new Array(16).fill(0));
/** Lanes 2 and 3 of an i32x4 moved to 0 and 1, for the conversion that reads the low two. */
const HIGH_TO_LOW = simd(0x0d, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
const EXTEND_LOW = simd(0xa7);
const EXTEND_HIGH = simd(0xa8);
const F64X2_ADD = simd(0xf0);
const F64X2_MUL = simd(0xf2);
const CONVERT_LOW = simd(0xfe);
const lane = (i: number) => simd(0x21, i);

/** Four dimensions of one chunk (their int8s widened into X; the query's in q01, q23): the first two into `lo`, the next two into `hi`. */
function fourDims(lo: number, hi: number, q01: number, q23: number): number[] {
  return [
    ...get(lo), ...get(X), ...CONVERT_LOW, ...get(q01), ...F64X2_MUL, ...F64X2_ADD, ...set(lo),
    ...get(hi), ...get(X), ...get(X), ...HIGH_TO_LOW, ...CONVERT_LOW, ...get(q23), ...F64X2_MUL, ...F64X2_ADD, ...set(hi),
  ];
}

/** Eight dimensions of the chunk at `p`, into its sums (s0, s1) in `lo` and (s2, s3) in `hi`. */
function eightDims(p: number, lo: number, hi: number): number[] {
  return [...get(p), ...LOAD8X8_S, ...tee(L), ...EXTEND_LOW, ...set(X), ...fourDims(lo, hi, Q0, Q1), ...get(L), ...EXTEND_HIGH, ...set(X), ...fourDims(lo, hi, Q2, Q3)];
}

/** The query's eight doubles at qp, read once for both chunks. */
const QUERY_DIMS = [Q0, Q1, Q2, Q3].flatMap((q, k) => [...get(QP), ...V128_LOAD(16 * k), ...set(q)]);

/** out[j + which] = ((lo0 + lo1) + hi0) + hi1. */
function store(lo: number, hi: number, which: number): number[] {
  return [...get(OUT), ...get(J), ...i32(3), ...SHL, ...ADD, ...get(lo), ...lane(0), ...get(lo), ...lane(1), ...F64_ADD, ...get(hi), ...lane(0), ...F64_ADD, ...get(hi), ...lane(1), ...F64_ADD, ...F64_STORE, ...mem(which * 8)];
}

/** The row start of chunk idx[j + which]: vec + idx[j + which] × dim. */
function rowStart(which: number): number[] {
  return [...get(VEC), ...get(IDX), ...get(J), ...i32(2), ...SHL, ...ADD, ...LOAD, ...mem(which * 4), ...get(DIM), ...MUL, ...ADD];
}

function kernelBytes(): Uint8Array<ArrayBuffer> {
  const body = [
    0x02, 0x40, 0x03, 0x40, // block $done, loop $pairs
    ...get(J), ...i32(1), ...ADD, ...get(N), ...GE_U, 0x0d, 1, // j + 1 >= n: done
    ...rowStart(0), ...set(P), ...rowStart(1), ...set(P2),
    ...get(P), ...get(DIM), ...ADD, ...set(END), ...get(Q), ...set(QP),
    ...ZERO, ...set(A), ...ZERO, ...set(B), ...ZERO, ...set(C), ...ZERO, ...set(D),
    0x03, 0x40, // loop $dims
    ...QUERY_DIMS, ...eightDims(P, A, B), ...eightDims(P2, C, D),
    ...get(P), ...i32(8), ...ADD, ...set(P), ...get(P2), ...i32(8), ...ADD, ...set(P2), ...get(QP), ...i32(64), ...ADD, ...set(QP),
    ...get(P), ...get(END), ...LT_U, 0x0d, 0, // more dimensions
    0x0b, // end $dims
    ...store(A, B, 0), ...store(C, D, 1),
    ...get(J), ...i32(2), ...ADD, ...set(J),
    0x0c, 0, // next pair
    0x0b, 0x0b, // end $pairs, $done
    0x0b, // end of function
  ];
  return kernelModuleBytes({ name: 'dots', params: [I32, I32, I32, I32, I32, I32], locals: [[5, I32], [10, V128]], body, memory: {} });
}
