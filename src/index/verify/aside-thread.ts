// The verifier's worker thread (aside-worker.ts): blobs cut again and a sample embedded again, with the very code an
// index run cuts and embeds with.
import type { Embedder } from '../../embed/index.js';
import { loadEmbedder } from '../../embed/index.js';
import { serveJobs } from '../../embed/runtime/worker-threads.js';
import { chunksOfBlob } from '../blob-chunks.js';
import { termsDiffering, type AsideJob, type AsideResult } from './aside-worker.js';

let model: Promise<Embedder> | null = null;

serveJobs(
  async (job: AsideJob): Promise<AsideResult> => {
    if (job.kind === 'cut') return { kind: 'cut', cut: await chunksOfBlob(job.path, Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength), job.maxLineChars) };
    if (job.kind === 'terms') return { kind: 'terms', differ: termsDiffering(job.texts, job.terms) };
    // No workers of its own (0: since 1 means one worker): this thread is the one aside.
    model ??= loadEmbedder(job.spec, { threads: 0, onNotice: () => undefined });
    const embedder = await model;
    const vectors = new Float32Array(job.texts.length * embedder.dim);
    (await embedder.embed(job.texts)).forEach((v, i) => vectors.set(v, i * embedder.dim));
    return { kind: 'embed', modelId: embedder.modelId, dim: embedder.dim, vectors };
  },
  (result) => (result.kind === 'embed' ? [result.vectors.buffer as ArrayBuffer] : []),
);
