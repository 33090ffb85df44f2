import type { Embedder } from '../../embed/index.js';
import { siblingModule, WorkerPool } from '../../embed/runtime/worker-threads.js';
import { chunksOfBlob } from '../blob-chunks.js';
import { contentTerms } from '../content-text.js';
import type { BlobCut } from './blob-truth.js';

type Cut = Awaited<ReturnType<BlobCut>>;

/**
 * What crosses to the worker: a blob to cut as `path` names it, documents to embed with the model `spec` loads, or
 * contents (as embedded) whose search words are held to those they came with.
 */
export type AsideJob = { kind: 'cut'; path: string; bytes: Uint8Array; maxLineChars: number } | { kind: 'embed'; spec: string; texts: string[] } | { kind: 'terms'; texts: string[]; terms: string[] };
export type AsideResult = { kind: 'cut'; cut: Cut } | { kind: 'embed'; modelId: string; dim: number; vectors: Float32Array } | { kind: 'terms'; differ: number[] };

/** Indexes of the texts whose search words are not the ones given: the same on the worker and here. */
export function termsDiffering(texts: string[], terms: string[]): number[] {
  return texts.flatMap((text, i) => (contentTerms(text) === terms[i] ? [] : [i]));
}

/**
 * Jobs queued inside the worker, so it goes from one to the next without waiting for the verifying thread, busy
 * with every other row; the blobs themselves are held by the verifier anyway.
 */
const QUEUED_IN_WORKER = 64;

/**
 * The verifier's costly checks on a worker thread, while the calling thread reads, checks and writes every row: an
 * import cuts ~5 % of its blobs again with tree-sitter (tokio: 38 Rust files, ~0.15 s, and as much again for the
 * grammar's first calls) and embeds their contents again (~700, ~0.15 s and the tokenizer's loading). The worker
 * runs the very code an index run cuts and embeds with; should it fail, the work is done on the calling thread.
 */
export class AsideWorker {
  private pool: WorkerPool<AsideJob, AsideResult> | null = null;
  /** Set once the worker failed: blobs are cut, and words checked, on this thread from then on. */
  private here = false;

  /** Starts the worker (with the first job: an import whose rows are all stored needs none). */
  start(): this {
    this.pool ??= new WorkerPool<AsideJob, AsideResult>(siblingModule(import.meta.url, 'aside-thread'), null, 1, QUEUED_IN_WORKER);
    return this;
  }

  readonly cut: BlobCut = async (path, bytes, maxLineChars) => {
    const result = bytes ? await this.aside({ kind: 'cut', path, bytes, maxLineChars }) : null;
    return result?.kind === 'cut' ? result.cut : chunksOfBlob(path, bytes, maxLineChars);
  };

  /** Which texts' search words differ from those given (aside, or here should the worker fail). */
  readonly termsDiffer = async (texts: string[], terms: string[]): Promise<number[]> => {
    const result = await this.aside({ kind: 'terms', texts, terms });
    return result?.kind === 'terms' ? result.differ : termsDiffering(texts, terms);
  };

  /** The worker's answer to a cut or a check of words, or null: it failed (now or before), and they are done here. */
  private async aside(job: AsideJob & { kind: 'cut' | 'terms' }): Promise<AsideResult | null> {
    if (this.here) return null;
    try {
      const result = await this.start().pool!.run(job);
      if (result.kind === job.kind) return result;
    } catch {
      // Here from now on.
    }
    this.here = true;
    return null;
  }

  /**
   * An embedder of documents by the model `spec` loads on the worker, taken only if it is `expected` (the model this
   * index uses, as its description states it); else, or should the worker fail, `here`.
   */
  embedder(spec: string, expected: { modelId: string; dim: number }, here: () => Promise<Embedder>): Embedder {
    let fallback: Promise<Embedder> | null = null;
    const embedHere = (texts: string[]) => (fallback ??= here()).then((m) => m.embed(texts));
    return {
      ...expected,
      embed: async (texts) => {
        if (fallback) return embedHere(texts);
        let result: AsideResult | null = null;
        try {
          result = await this.start().pool!.run({ kind: 'embed', spec, texts });
        } catch {
          // Embedded here from now on.
        }
        if (result?.kind !== 'embed' || result.modelId !== expected.modelId || result.dim !== expected.dim) return embedHere(texts);
        return texts.map((_, i) => result.vectors.subarray(i * expected.dim, (i + 1) * expected.dim));
      },
      embedQuery: async (text) => (await (fallback ??= here())).embedQuery(text),
      close: async () => undefined,
    };
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = null;
  }
}
