// Indexing a benchmark checkout, shared by every eval: the default model keeps its id while its recipe is tuned, so
// CodeIndex alone would search an index of an older build with query vectors of the new one. A stamp beside the
// index records the model it was made with; an index of another is made again from scratch.
import fs from 'node:fs';
import path from 'node:path';
import { describeModel } from '../../src/embed/models/describe.js';
import { readManifest as readModelManifest } from '../../src/embed/models/model-cache.js';
import type { CodeIndex } from '../../src/service/code-index.js';

export interface CheckoutIndexing {
  /** The run's files and chunks embedded; `upToDate` when nothing was. */
  summary: Awaited<ReturnType<CodeIndex['index']>>;
  /** The last full index run's time (kept beside the index: later runs find it up to date and take none). */
  indexMs: number;
}

/** Brings the checkout's index up to date with the model of this process; `rebuild` makes it again whatever it holds. */
export async function indexCheckout(index: CodeIndex, name: string, log: (message: string) => void, rebuild = false): Promise<CheckoutIndexing> {
  await index.model();
  const model = await modelStamp();
  const stampFile = path.join(index.ctx.layout.dir, 'eval-model.json');
  const stamp = readStamp(stampFile);
  const stale = fs.existsSync(index.ctx.layout.meta) && stamp?.model !== model;
  if (stale && !rebuild) log(`${name}: the model was rebuilt since this index was made; re-indexing`);
  const t0 = performance.now();
  const summary = await index.index({ rebuild: rebuild || stale });
  const ms = performance.now() - t0;
  const full = !summary.upToDate && (rebuild || stale || stamp === null);
  const indexMs = full || stamp === null ? ms : stamp.indexMs;
  fs.writeFileSync(stampFile, JSON.stringify({ model, indexMs }));
  if (!summary.upToDate) log(`${name}: indexed ${summary.files} files, ${summary.chunksEmbedded} chunks in ${(ms / 1000).toFixed(1)} s`);
  return { summary, indexMs };
}

function readStamp(file: string): { model: string; indexMs: number } | null {
  try {
    const stamp = JSON.parse(fs.readFileSync(file, 'utf8')) as { model?: unknown; indexMs?: unknown };
    return typeof stamp.model === 'string' && typeof stamp.indexMs === 'number' ? { model: stamp.model, indexMs: stamp.indexMs } : null;
  } catch {
    return null;
  }
}

/** What the default model is now (id, recipe, build). */
async function modelStamp(): Promise<string> {
  const m = await describeModel();
  const manifest = readModelManifest(m.path) as Record<string, unknown> | undefined;
  return JSON.stringify({ id: m.id, fingerprint: manifest?.recipeFingerprint ?? null, createdAt: manifest?.createdAt ?? null });
}
