import type { StaticEncoderSource } from './static-encoder.js';
import { siblingModule, WorkerPool } from './worker-threads.js';

/** Texts per job: small enough to balance several workers, large enough to amortise messaging. */
const JOB_SIZE = 32;
/**
 * Jobs queued inside each worker. With one, a worker waited for the indexing thread to hand it the next job, and
 * that thread parses files between its awaits: profiled on a 10,000-file index, the workers were idle 63 % of the
 * run. Four keep 128 texts ahead of each worker, still small against a 1,024-chunk group.
 */
const JOBS_PER_WORKER = 4;

/** Static encoders on worker threads, each with its own tokenizer, all sharing one embedding table. */
export class StaticWorkerPool {
  private readonly pool: WorkerPool<string[], Float32Array>;

  constructor(source: StaticEncoderSource, size: number) {
    if (!(source.table instanceof Float32Array) || !(source.table.buffer instanceof SharedArrayBuffer)) throw new Error('the worker pool needs the table in shared memory');
    this.pool = new WorkerPool(siblingModule(import.meta.url, 'static-worker'), source, size, JOBS_PER_WORKER);
  }

  /** Vectors of all texts, concatenated in input order. */
  async encode(texts: string[], dim: number): Promise<Float32Array> {
    const out = new Float32Array(texts.length * dim);
    const jobs: Promise<void>[] = [];
    for (let start = 0; start < texts.length; start += JOB_SIZE) {
      jobs.push(this.pool.run(texts.slice(start, start + JOB_SIZE)).then((vectors) => out.set(vectors, start * dim)));
    }
    await Promise.all(jobs);
    return out;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
