// A worker thread cutting blobs again for the verifier (blob-cutter.ts): the same code an index run cuts them with.
import { serveJobs } from '../../embed/runtime/worker-threads.js';
import { chunksOfBlob } from '../blob-chunks.js';
import type { CutJob } from './blob-cutter.js';

serveJobs(({ path, bytes, maxLineChars }: CutJob) => chunksOfBlob(path, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), maxLineChars));
