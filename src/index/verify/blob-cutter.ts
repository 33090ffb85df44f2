import { siblingModule, WorkerPool } from '../../embed/runtime/worker-threads.js';
import { chunksOfBlob } from '../blob-chunks.js';
import type { BlobCut } from './blob-truth.js';

/** A blob to cut, as it crosses to the worker. */
export interface CutJob {
  path: string;
  bytes: Uint8Array;
  maxLineChars: number;
}

type Cut = Awaited<ReturnType<BlobCut>>;

/**
 * Jobs queued inside the worker, so it goes from one blob to the next without waiting for the verifying thread,
 * busy with every other row; the blobs themselves are held by the verifier anyway.
 */
const QUEUED_IN_WORKER = 64;

/**
 * Blobs cut again on a worker thread, while the calling thread checks every other row and writes them: an import
 * cuts ~5 % of its blobs with tree-sitter (tokio: 38 Rust files, ~0.3 s on one core, most of it the grammar's
 * first calls), which else holds up the thread that reads, checks and writes the rest. The worker runs the very
 * code an index run cuts with (index/blob-chunks.ts); should it fail to start or die, blobs are cut here instead.
 */
export class BlobCutter {
  private pool: WorkerPool<CutJob, Cut> | null = null;
  private failed = false;

  /** Starts the worker, so it loads its modules while the caller reads on. */
  start(): this {
    this.pool ??= new WorkerPool<CutJob, Cut>(siblingModule(import.meta.url, 'cut-worker'), null, 1, QUEUED_IN_WORKER);
    return this;
  }

  readonly cut: BlobCut = async (path, bytes, maxLineChars) => {
    if (this.failed || !bytes) return chunksOfBlob(path, bytes, maxLineChars);
    try {
      return await this.start().pool!.run({ path, bytes, maxLineChars });
    } catch {
      this.failed = true;
      return chunksOfBlob(path, bytes, maxLineChars);
    }
  };

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = null;
  }
}
