/**
 * The bytes of a WebAssembly module of one exported function over an imported memory: what the hand-written SIMD
 * kernels (embed/runtime/row-sum.ts, search/int8-dots.ts) are. Written out here rather than compiled from text, so
 * the build needs no WebAssembly toolchain and each kernel's instructions stand beside the argument for their
 * exactness. Only the encoding lives here; what a kernel computes is its own file's.
 */

export const I32 = 0x7f;
export const F64 = 0x7c;
export const V128 = 0x7b;

/** Where every kernel finds its memory: `{ env: { memory } }` at instantiation. */
export const MEMORY_IMPORT = 'env';

export function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
}

export function sleb(value: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && !(byte & 0x40)) || (value === -1 && byte & 0x40)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

/** local.get, local.set, local.tee, i32.const. */
export const get = (local: number) => [0x20, ...uleb(local)];
export const set = (local: number) => [0x21, ...uleb(local)];
export const tee = (local: number) => [0x22, ...uleb(local)];
export const i32 = (value: number) => [0x41, ...sleb(value)];
/** A SIMD instruction: its opcode, then its immediates (a memory access's alignment and offset, a shuffle's lanes). */
export const simd = (op: number, ...immediates: number[]) => [0xfd, ...uleb(op), ...immediates];
/** A memory access's immediates: log2 of its alignment, then its offset. */
export const memarg = (alignLog2: number, offset: number) => [alignLog2, ...uleb(offset)];

export interface KernelSpec {
  /** The exported function's name. */
  name: string;
  /** Its parameter types (no results). */
  params: number[];
  /** Its locals after the parameters, in runs of [count, type]. */
  locals: [number, number][];
  /** Its instructions, the final `end` included. */
  body: number[];
  /** The imported memory's limits: `maximum` pages where given (a shared memory needs one). */
  memory: { shared?: boolean; maximum?: number };
}

export function kernelModuleBytes(spec: KernelSpec): Uint8Array<ArrayBuffer> {
  const name = (s: string) => [s.length, ...Buffer.from(s)];
  const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content];
  const { shared = false, maximum } = spec.memory;
  if (shared && maximum === undefined) throw new Error('a shared memory needs a maximum');
  const limits = maximum === undefined ? [0x00, 0x01] : [shared ? 0x03 : 0x01, 0x01, ...uleb(maximum)];
  const code = [...uleb(spec.locals.length), ...spec.locals.flatMap(([count, type]) => [...uleb(count), type]), ...spec.body];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [0x01, 0x60, ...uleb(spec.params.length), ...spec.params, 0x00]),
    ...section(2, [0x01, ...name(MEMORY_IMPORT), ...name('memory'), 0x02, ...limits]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...name(spec.name), 0x00, 0x00]),
    ...section(10, [0x01, ...uleb(code.length), ...code]),
  ]);
}

/** The module compiled, or null where this engine cannot (no WebAssembly SIMD): the caller's JavaScript answers then. */
export function compiledOrNull(bytes: () => Uint8Array<ArrayBuffer>): WebAssembly.Module | null {
  try {
    return new WebAssembly.Module(bytes());
  } catch {
    return null;
  }
}
