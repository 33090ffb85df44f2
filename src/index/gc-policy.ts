import { readMeta } from '../store/meta.js';
import { openStore, storeExists } from '../store/open-store.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { dirSize } from '../util/dir-size.js';
import { readJson } from '../util/json-file.js';
import type { IndexContext } from './index-context.js';
import type { IndexSummary } from './known-tree.js';
import { chooseManifests, collectGarbage, referencedBlobs, type GcResult } from './gc.js';

/**
 * The store is measured again only once it holds this much more than when it was last measured: counting what is
 * reclaimable reads every chunk's blob (~0.1 s per 100k chunks), and a commit's run usually adds under 1 %.
 */
const REGROWTH = 1.1;

/** What the last look found, so the next run can tell whether the store grew enough to look again. */
interface GcCheck {
  chunks: number;
  at: string;
}

/** What an index run's look at the store decided. */
export interface AutoGcOutcome {
  looked: boolean;
  storedChunks: number;
  reclaimableChunks: number;
  /** Set when garbage was collected. */
  gc?: GcResult;
}

/**
 * Collects garbage after an index run when it is due: once `autoGcPercent` of the stored chunks belong only to
 * manifests gc would drop (or to none), or `.ocrag/` passed `storeBudgetMB` with anything reclaimable. Keeps what
 * `ocrag gc` keeps: the checked-out branches and commits, and the `keepManifests` most recently indexed others.
 * Runs under the index lock, as the index run does.
 */
export async function collectGarbageIfDue(ctx: IndexContext, onNotice?: (message: string) => void): Promise<AutoGcOutcome> {
  const none: AutoGcOutcome = { looked: false, storedChunks: 0, reclaimableChunks: 0 };
  const meta = readMeta(ctx.layout.meta);
  if (!ctx.config.autoGc || !meta || !storeExists(ctx.layout)) return none;
  const budget = ctx.config.storeBudgetMB * 1024 * 1024;
  const overBudget = budget > 0 && dirSize(ctx.layout.dir) > budget;
  const last = readJson<GcCheck>(ctx.layout.gcCheck);
  const store = await openStore(ctx.layout, meta.dim, { create: false });
  let stored: number;
  let reclaimable = 0;
  try {
    stored = await store.countChunks();
    if (!overBudget && typeof last?.chunks === 'number' && stored < last.chunks * REGROWTH) return { ...none, storedChunks: stored };
    const { kept } = await chooseManifests(ctx, ctx.config.keepManifests);
    const referenced = referencedBlobs(ctx, kept.values());
    for (const [blob, n] of await store.chunkCounts()) if (!referenced.has(blob)) reclaimable += n;
  } finally {
    store.close();
  }
  const due = reclaimable > 0 && (overBudget || reclaimable * 100 >= stored * ctx.config.autoGcPercent);
  if (!due) {
    recordGcCheck(ctx, stored);
    return { looked: true, storedChunks: stored, reclaimableChunks: reclaimable };
  }
  const why = overBudget ? `.ocrag/ is over storeBudgetMB (${ctx.config.storeBudgetMB} MB)` : `${Math.round((reclaimable * 100) / stored)}% of ${stored} stored chunks are reclaimable`;
  onNotice?.(`ocrag: ${why}: collecting garbage (autoGc; keeps the checked-out branches and ${ctx.config.keepManifests} recent manifests)`);
  const gc = await collectGarbage(ctx, ctx.config.keepManifests);
  recordGcCheck(ctx, stored - gc.chunksRemoved);
  return { looked: true, storedChunks: stored, reclaimableChunks: reclaimable, gc };
}

/**
 * Records that the store holds `chunks` and nothing reclaimable. An index run into an empty store knows it without
 * the look (every chunk is its manifest's), which would read all 363k chunks' blobs of a 50,000-file index at the
 * run's high-water mark of memory.
 */
export function recordGcCheck(ctx: IndexContext, chunks: number): void {
  writeFileAtomic(ctx.layout.gcCheck, JSON.stringify({ chunks, at: new Date().toISOString() } satisfies GcCheck) + '\n');
}

/**
 * After a run that stored something: the run's summary, with what gc collected when it was due; `compact`: the store
 * is compacted when fragmented unless gc did it (a small run leaves that to here, see indexer.ts `deferCompaction`).
 * Never fails the run.
 */
export async function summaryAfterGc(ctx: IndexContext, summary: IndexSummary, onNotice?: (message: string) => void, compact = false): Promise<IndexSummary> {
  try {
    const { gc } = await collectGarbageIfDue(ctx, onNotice);
    if (!gc && compact) await compactIfFragmented(ctx);
    if (!gc) return summary;
    return { ...summary, garbageCollected: { manifestsRemoved: gc.manifestsRemoved.length, chunksRemoved: gc.chunksRemoved, bytesFreed: Math.max(0, gc.bytesBefore - gc.bytesAfter) } };
  } catch (e) {
    onNotice?.(`ocrag: automatic gc skipped: ${(e as Error).message}`);
    return summary;
  }
}

/** Folds a store's small commits when they have piled up (LanceStore.compactIfFragmented). */
async function compactIfFragmented(ctx: IndexContext): Promise<void> {
  const meta = readMeta(ctx.layout.meta);
  if (!meta || !storeExists(ctx.layout)) return;
  const store = await openStore(ctx.layout, meta.dim, { create: false });
  try {
    await store.compactIfFragmented();
  } finally {
    store.close();
  }
}
