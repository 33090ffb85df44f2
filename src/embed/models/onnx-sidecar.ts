import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, promises as fsp, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic as writeAtomically } from '../../util/atomic-write.js';
import { readJson } from '../../util/json-file.js';
import { modelCacheDir } from './model-cache.js';
import { extractStaticLookup, type StaticLookup } from './static-onnx.js';

/**
 * Facts about an ONNX file that are expensive to derive (content hash, static-lookup analysis,
 * the decoded embedding table), cached in sidecars next to it and trusted only while the
 * file's size and mtime are unchanged.
 */
interface SidecarMeta {
  onnxBytes: number;
  onnxMtimeMs: number;
  sha256: string;
  /** Present when the graph is a pure token lookup; the table is in the `.bin` sidecar. */
  staticLookup: { vocabSize: number; dim: number } | null;
}

export interface OnnxFacts {
  sha256: string;
  staticLookup: { vocabSize: number; dim: number; tablePath: string } | null;
}

const META_SUFFIX = '.ocrag.json';
const TABLE_SUFFIX = '.ocrag-table.f32';

export function onnxFacts(onnxPath: string): OnnxFacts {
  const stat = statSync(onnxPath);
  for (const base of sidecarBases(onnxPath)) {
    const meta = readJson<SidecarMeta>(base + META_SUFFIX);
    if (!meta || meta.onnxBytes !== stat.size || meta.onnxMtimeMs !== stat.mtimeMs) continue;
    if (!meta.staticLookup) return { sha256: meta.sha256, staticLookup: null };
    const tablePath = base + TABLE_SUFFIX;
    const expected = meta.staticLookup.vocabSize * meta.staticLookup.dim * 4;
    if (fileSizeOr(tablePath) === expected) return { sha256: meta.sha256, staticLookup: { ...meta.staticLookup, tablePath } };
  }
  return analyseAndStore(onnxPath, stat);
}

/** Used by the builder, which already holds the table, so the first load skips decoding the graph. */
export function writeSidecars(onnxPath: string, lookup: StaticLookup | null): void {
  const bytes = readFileSync(onnxPath);
  store(onnxPath, statSync(onnxPath), sha256Hex(bytes), lookup);
}

/**
 * The model's whole table, read into the memory `allocate` gives without holding the thread: the default model's 78 MB took 1.9 s on a busy machine,
 * while a server must answer.
 */
export async function readTable(tablePath: string, allocate: (bytes: number) => Float32Array): Promise<Float32Array> {
  // fs.promises when first used: node:fs/promises (and the readline it loads) at start was a few ms of every search.
  const file = await fsp.open(tablePath, 'r');
  try {
    const { size } = await file.stat();
    // Raw little-endian float32, the byte order of every platform Node supports in practice.
    const table = allocate(size);
    const view = new Uint8Array(table.buffer, table.byteOffset, size);
    for (let offset = 0; offset < size; ) offset += (await file.read(view, offset, size - offset, offset)).bytesRead;
    return table;
  } finally {
    await file.close();
  }
}

/** Rows of a table file read on demand, for an encoder that embeds only a query or two. */
export class TableFileRows {
  readonly rowCount: number;
  private fd: number | null = null;

  constructor(private readonly tablePath: string, private readonly dim: number) {
    this.rowCount = statSync(tablePath).size / (dim * 4);
  }

  /** Reads row `id` into `out`; the encoder keeps the rows it read (runtime/row-arena.ts). */
  read(id: number, out: Float32Array): void {
    this.fd ??= openSync(this.tablePath, 'r');
    const bytes = new Uint8Array(out.buffer, out.byteOffset, this.dim * 4);
    let done = 0;
    while (done < bytes.length) done += readSync(this.fd, bytes, done, bytes.length - done, id * this.dim * 4 + done);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

function analyseAndStore(onnxPath: string, stat: { size: number; mtimeMs: number }): OnnxFacts {
  const bytes = readFileSync(onnxPath);
  const sha256 = sha256Hex(bytes);
  const lookup = extractStaticLookup(bytes);
  const base = store(onnxPath, stat, sha256, lookup ?? null);
  return {
    sha256,
    staticLookup: lookup && base ? { vocabSize: lookup.vocabSize, dim: lookup.dim, tablePath: base + TABLE_SUFFIX } : null,
  };
}

/** Returns the sidecar base path written to, or undefined if no location was writable. */
function store(onnxPath: string, stat: { size: number; mtimeMs: number }, sha256: string, lookup: StaticLookup | null): string | undefined {
  const meta: SidecarMeta = {
    onnxBytes: stat.size,
    onnxMtimeMs: stat.mtimeMs,
    sha256,
    staticLookup: lookup ? { vocabSize: lookup.vocabSize, dim: lookup.dim } : null,
  };
  for (const base of sidecarBases(onnxPath)) {
    try {
      mkdirSync(dirname(base), { recursive: true });
      if (lookup) writeAtomically(base + TABLE_SUFFIX, new Uint8Array(lookup.matrix.buffer, lookup.matrix.byteOffset, lookup.matrix.byteLength));
      writeAtomically(base + META_SUFFIX, JSON.stringify(meta));
      return base;
    } catch {
      // read-only model folder: fall back to the cache
    }
  }
  return undefined;
}

/** Next to the ONNX file first; for read-only folders, a per-path slot in the cache. */
function sidecarBases(onnxPath: string): string[] {
  const slot = createHash('sha256').update(onnxPath).digest('hex').slice(0, 16);
  return [onnxPath, join(modelCacheDir(), 'sidecars', slot, basename(onnxPath))];
}

function fileSizeOr(file: string): number | undefined {
  try {
    return statSync(file).size;
  } catch {
    return undefined;
  }
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
