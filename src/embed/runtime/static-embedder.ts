import { availableParallelism } from 'node:os';
import { embedThreads } from '../../config/environment.js';
import { readTable, TableFileRows } from '../models/onnx-sidecar.js';
import { withPrefix, type Prompts } from './prompts.js';
import { tableMemory, type TableMemory } from './row-sum.js';
import { StaticEncoder, type StaticEncoderSource } from './static-encoder.js';
import type { StaticWorkerPool } from './static-pool.js';
import type { Embedder } from './types.js';

/** Batches below this stay on the calling thread: spawning workers (~100 ms) would not pay off. */
export const POOL_MIN_BATCH = 64;

export interface StaticEmbedderOptions {
  modelId: string;
  prompts: Prompts;
  /** Worker threads for big batches; 0 = embed on the calling thread only. Default `defaultThreadCount()`. */
  threads?: number;
}

/**
 * One worker per two cores, at most MAX_DEFAULT_WORKERS. An index run's own thread chunks while the workers embed,
 * and embedding a chunk now costs about a third of chunking it (tokio, CPU: 0.6 s against 1.9 s), so one worker
 * keeps up with it; a second one only started (~0.2 s) and warmed a tokenizer of its own, about 0.3-0.7 s more CPU
 * on tokio's index for no shorter run on two cores.
 */
const MAX_DEFAULT_WORKERS = 2;

export function defaultThreadCount(): number {
  return embedThreads() ?? Math.max(1, Math.min(Math.floor(availableParallelism() / 2), MAX_DEFAULT_WORKERS));
}

/** Fast path for pure token-lookup models: tokenizer + table, no onnxruntime, no Transformers.js. */
export function createStaticEmbedder(
  modelDir: string,
  lookup: { tablePath: string; dim: number },
  options: StaticEmbedderOptions,
): Embedder {
  const threads = options.threads ?? defaultThreadCount();
  // The table (78 MB for the default model: 38,224 tokens × 512 floats) is read when documents are first embedded; until then queries read
  // just their tokens' rows, which keeps it out of a one-shot search.
  // This thread's encoder over the whole table is made for the first small batch: an index run whose batches all
  // go to the workers never sets up a tokenizer here (~20 ms with the Chinese vocabulary).
  type Full = { source: StaticEncoderSource & { table: Float32Array }; encoder: () => StaticEncoder };
  let full: Full | null = null;
  // Until then, and after a release, queries read their rows from the file: the file and its encoder go together.
  let fromFile: { rows: TableFileRows; encoder: StaticEncoder } | null = null;
  let loading: Promise<Full> | null = null;
  const loadFull = async (): Promise<Full> => {
    if (full) return full;
    let memory: TableMemory | null = null;
    const allocate = (bytes: number) => {
      memory = tableMemory(bytes, lookup.dim, threads > 0);
      return memory?.table ?? new Float32Array(threads > 0 ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
    };
    const load: Promise<Full> = (loading ??= readTable(lookup.tablePath, allocate).then((table) => {
      const source = { modelDir, dim: lookup.dim, table, ...(memory ? { memory: memory.memory } : {}) };
      let encoder: StaticEncoder | undefined;
      const loaded = { source, encoder: () => (encoder ??= new StaticEncoder(source)) };
      // A release while the table was read keeps nothing of it.
      if (loading !== load) return loaded;
      loading = null;
      full = loaded;
      fromFile?.rows.close();
      fromFile = null;
      return loaded;
    }));
    return load;
  };
  const forQuery = () => {
    if (full) return full.encoder();
    if (!fromFile) {
      const rows = new TableFileRows(lookup.tablePath, lookup.dim);
      fromFile = { rows, encoder: new StaticEncoder({ modelDir, dim: lookup.dim, table: rows }) };
    }
    return fromFile.encoder;
  };
  // Worker threads are loaded with the first big batch: a search embeds one query and never needs them. `users`
  // counts the embeds under way on a pool: a release (an index run's, while a session's search embeds its edits)
  // lets them finish, and the last one closes it; terminated under them, their jobs would never be answered.
  let pool: { workers: Promise<StaticWorkerPool>; users: number } | undefined;
  const closeIfDone = async (p: NonNullable<typeof pool>) => {
    if (p !== pool && p.users === 0) await (await p.workers).close();
  };

  const release = async () => {
    const released = pool;
    pool = undefined;
    // The workers share the table: it is garbage once they are gone. Queries read their rows from the file again.
    full = null;
    loading = null;
    if (released) await closeIfDone(released);
  };

  const split = (flat: Float32Array, count: number): Float32Array[] =>
    Array.from({ length: count }, (_, i) => flat.slice(i * lookup.dim, (i + 1) * lookup.dim));

  return {
    modelId: options.modelId,
    dim: lookup.dim,
    async embed(texts) {
      const prefixed = texts.map((text) => withPrefix(options.prompts.document, text));
      // A small batch before the table is loaded reads only its tokens' rows, as a query does: a commit's few chunks,
      // or the sample an import embeds again (~1,100 contents of tokio), need a few thousand of its 38,224 rows.
      if (!full && prefixed.length < POOL_MIN_BATCH) return split(forQuery().encodeBatch(prefixed), prefixed.length);
      const { source, encoder } = await loadFull();
      // Once the workers are up, small batches (a group's last slice) go to them too: on this thread the first set
      // up a tokenizer of its own (75 ms) and each held a server's event loop while it encoded.
      if (threads > 0 && (prefixed.length >= POOL_MIN_BATCH || pool)) {
        const p = (pool ??= { workers: import('./static-pool.js').then((m) => new m.StaticWorkerPool(source, threads)), users: 0 });
        p.users++;
        try {
          return split(await (await p.workers).encode(prefixed, lookup.dim), prefixed.length);
        } finally {
          p.users--;
          await closeIfDone(p);
        }
      }
      return split(encoder().encodeBatch(prefixed), prefixed.length);
    },
    async embedQuery(text) {
      return forQuery().encodeBatch([withPrefix(options.prompts.query, text)]);
    },
    prepare(texts) {
      // A small batch's encoder (its tokenizer: ~30 ms of CPU with the Chinese vocabulary), as `embed` would make it.
      if (full || texts === 0 || texts >= POOL_MIN_BATCH) return;
      try {
        forQuery();
      } catch {
        // Said by the embed that needs it.
      }
    },
    release,
    async close() {
      await release();
      fromFile?.rows.close();
    },
  };
}
