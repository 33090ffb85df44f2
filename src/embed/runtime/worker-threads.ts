import { parentPort, Worker, type Transferable } from 'node:worker_threads';

/** URL of module `name` next to the calling module, with the caller's extension (.ts from sources, .js from dist). */
export function siblingModule(callerUrl: string, name: string): URL {
  return new URL(`./${name}${callerUrl.endsWith('.ts') ? '.ts' : '.js'}`, callerUrl);
}

/**
 * Starts a worker on an ES module. Under tsx (tests, running from sources) loader hooks do not
 * reach workers in Node 20, so the worker registers tsx itself before importing its entry.
 */
function startWorker(entry: URL, workerData: unknown): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData });
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

type Reply<TOut> = { jobId: number; output: TOut } | { jobId: number; error: string };

/** Worker side: answers each job with `handler`'s result, transferring the listed buffers. */
export function serveJobs<TIn, TOut>(handler: (input: TIn) => TOut | Promise<TOut>, transfer: (output: TOut) => Transferable[] = () => []): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs must run in a worker thread');
  port.on('message', async ({ jobId, input }: { jobId: number; input: TIn }) => {
    try {
      const output = await handler(input);
      port.postMessage({ jobId, output } satisfies Reply<TOut>, transfer(output));
    } catch (err) {
      port.postMessage({ jobId, error: String((err as Error)?.stack ?? err) } satisfies Reply<TOut>);
    }
  });
}

interface Slot {
  worker: Worker;
  /** Jobs posted to this worker and not answered yet. */
  inFlight: number;
}

/**
 * Fixed-size pool of workers running one module; each job goes to the worker with the fewest outstanding.
 * `depth` jobs may wait in one worker's own queue: a worker that finishes a job starts the next without a round trip
 * through the calling thread, whose event loop may be busy for a while (parsing files between awaits).
 */
export class WorkerPool<TIn, TOut> {
  private readonly slots: Slot[];
  private readonly pending = new Map<number, { resolve(output: TOut): void; reject(err: Error): void }>();
  private readonly queue: Array<{ jobId: number; input: TIn }> = [];
  private nextJobId = 0;
  private failure: Error | undefined;
  private closing = false;

  constructor(entry: URL, workerData: unknown, size: number, private readonly depth = 1) {
    this.slots = Array.from({ length: size }, () => this.spawn(entry, workerData));
  }

  run(input: TIn): Promise<TOut> {
    if (this.failure) return Promise.reject(this.failure);
    const jobId = this.nextJobId++;
    return new Promise<TOut>((resolve, reject) => {
      this.pending.set(jobId, { resolve, reject });
      this.queue.push({ jobId, input });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.slots.map(({ worker }) => worker.terminate()));
  }

  private dispatch(): void {
    for (;;) {
      const slot = this.slots.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
      if (slot.inFlight >= this.depth) return;
      const job = this.queue.shift();
      if (!job) return;
      try {
        slot.worker.postMessage(job);
      } catch (err) {
        this.settle(job.jobId, { jobId: job.jobId, error: String(err) }); // e.g. input that cannot be cloned
        continue;
      }
      if (slot.inFlight++ === 0) slot.worker.ref(); // keep the process alive while work is outstanding
    }
  }

  private spawn(entry: URL, workerData: unknown): Slot {
    const slot: Slot = { worker: startWorker(entry, workerData), inFlight: 0 };
    slot.worker.unref(); // an idle pool must not keep the process alive
    slot.worker.on('message', (reply: Reply<TOut>) => {
      if (--slot.inFlight === 0) slot.worker.unref();
      this.settle(reply.jobId, reply);
      this.dispatch();
    });
    slot.worker.on('error', (err) => this.fail(err));
    slot.worker.on('exit', (code) => {
      if (code !== 0 && !this.closing) this.fail(new Error(`worker exited with code ${code}`));
    });
    return slot;
  }

  private settle(jobId: number, reply: Reply<TOut>): void {
    const job = this.pending.get(jobId);
    this.pending.delete(jobId);
    if ('error' in reply) job?.reject(new Error(`worker failed: ${reply.error}`));
    else job?.resolve(reply.output);
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const job of this.pending.values()) job.reject(this.failure);
    this.pending.clear();
    this.queue.length = 0;
  }
}
