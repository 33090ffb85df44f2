import type { Config } from '../config/config.js';
import { describeModel, loadEmbedder, type Embedder } from '../embed/index.js';
import { currentManifest } from '../index/manifest-state.js';
import { openContext } from '../index/context.js';
import { describeProblem, EVERY_ROW, pathsByBlob, verifierFor } from '../index/verify/index.js';
import { CHUNK_FIELDS } from '../store/chunk-columns.js';
import { asStoreDamage } from '../store/damage.js';
import { readMeta } from '../store/meta.js';
import { openStore } from '../store/open-store.js';
import { StoreDamageError } from '../util/errors.js';

/** What `ocrag doctor --verify` found: a check as doctor shows it, with the counts and the first problems. */
export interface IndexVerification {
  name: 'verify';
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
  /** The commit whose index was held to git. */
  commit: string | null;
  counts: { blobs: number; chunks: number; marks: number; blobsCut: number; contentsEmbedded: number };
  /** Problems found (checking stops after the first PROBLEMS_SHOWN). */
  problemCount: number;
  /** The first of them, one line each. */
  problems: string[];
  seconds: number;
}

/** Problems listed before checking stops: enough to see whether one row or everything is wrong. */
const PROBLEMS_SHOWN = 10;

const REBUILD = 'run "ocrag index --rebuild": it embeds everything again from git';

/**
 * Holds every chunk and mark of HEAD's index in the local store to git, as rows from outside are held (index/
 * verify/), with nothing sampled: each blob cut again (spans, breadcrumbs, texts, search words), each content
 * embedded again, each chunk id derived again. As long as indexing, so only on request.
 */
export async function verifyIndex(cwd: string, flags: Partial<Config>): Promise<IndexVerification> {
  const started = performance.now();
  const ctx = await openContext(cwd, flags);
  const counts = { blobs: 0, chunks: 0, marks: 0, blobsCut: 0, contentsEmbedded: 0 };
  const result = (status: IndexVerification['status'], detail: string, fix?: string, problems: string[] = [], problemCount = problems.length): IndexVerification => ({
    name: 'verify',
    status,
    detail,
    ...(fix ? { fix } : {}),
    commit: manifest?.commit ?? null,
    counts,
    problemCount,
    problems,
    seconds: (performance.now() - started) / 1000,
  });
  const meta = readMeta(ctx.layout.meta);
  const manifest = meta && currentManifest(ctx);
  if (!meta || !manifest) return result('warn', 'nothing to verify: this branch has no index', 'run "ocrag index"');
  const model = await describeModel(ctx.config.model);
  if (model.id !== manifest.modelId) return result('fail', `indexed with model ${manifest.modelId}, but the configured model is ${model.id}: its vectors cannot be checked`, REBUILD);

  // Files skipped for what their blob holds have a mark, which must say the truth too.
  const files = [...Object.entries(manifest.files), ...Object.entries(manifest.skippedBlobs)];
  const blobs = [...new Set(files.map(([, blob]) => blob))];
  counts.blobs = blobs.length;
  const loaded: { model?: Promise<Embedder> } = {};
  const paths = pathsByBlob(files);
  const verifier = verifierFor(ctx, {
    dim: meta.dim,
    paths,
    blobs,
    plan: EVERY_ROW,
    embedder: () => (loaded.model ??= loadEmbedder(ctx.config.model)),
    keepProblems: PROBLEMS_SHOWN,
    identity: { modelId: manifest.modelId, dim: meta.dim, chunkerVersion: manifest.chunkerVersion },
  });
  const lacking: string[] = [];
  try {
    const store = await openStore(ctx.layout, meta.dim, { create: false });
    try {
      const state = await store.blobState(blobs);
      for (const blob of blobs) if (!state.has(blob)) lacking.push(`blob ${blob.slice(0, 12)} (${paths(blob)[0]}) has neither chunks nor a mark in the store`);
      const marks = [...state].flatMap(([blob, reason]) => (reason === 'chunks' ? [] : [{ blob, reason }]));
      await verifier.checkMarks(marks);
      const withChunks = blobs.filter((b) => state.get(b) === 'chunks');
      if (!verifier.done) for await (const batch of store.chunkColumns(withChunks, CHUNK_FIELDS)) if (!(await verifier.checkBatch(batch))) break;
      await verifier.finish();
    } finally {
      store.close();
    }
  } catch (e) {
    const damage = asStoreDamage(e, ctx.layout.tables);
    if (damage instanceof StoreDamageError) return result('fail', `the store could not be read whole (${damage.detail})`, REBUILD);
    throw e;
  } finally {
    await verifier.close();
    await (await loaded.model?.catch(() => null))?.close();
  }
  Object.assign(counts, { chunks: verifier.counts.rows, marks: verifier.counts.marks, blobsCut: verifier.counts.blobsCut, contentsEmbedded: verifier.embedded });
  const problems = [...lacking, ...verifier.problems.map(describeProblem)].slice(0, PROBLEMS_SHOWN);
  const problemCount = lacking.length + verifier.problemCount;
  if (problemCount) return result('fail', `${problemCount}${verifier.done ? '+' : ''} of what the index holds for ${manifest.commit.slice(0, 8)} is not what git holds: ${problems[0]}`, REBUILD, problems, problemCount);
  return result('ok', `${counts.chunks} chunks of ${counts.blobs} blobs and ${counts.marks} marks of ${manifest.commit.slice(0, 8)} hold against git: every blob cut again, ${counts.contentsEmbedded} contents embedded again`);
}
