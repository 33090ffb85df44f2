import { workerData } from 'node:worker_threads';
import { StaticEncoder, type StaticEncoderSource } from './static-encoder.js';
import { serveJobs } from './worker-threads.js';

// One static encoder per worker: its own tokenizer, the parent's embedding table (shared memory).
const encoder = new StaticEncoder(workerData as StaticEncoderSource);
serveJobs(
  (texts: string[]) => encoder.encodeBatch(texts),
  (vectors) => [vectors.buffer as ArrayBuffer],
);
