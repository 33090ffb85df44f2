import { readMeta } from '../store/meta.js';
import type { ChunkStore } from '../store/contract.js';
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
export async function collectGarbageIfDue(ctx: IndexContext, onNotice?: (message: string) => void, compact = false): Promise<AutoGcOutcome> {
  const none: AutoGcOutcome = { looked: false, storedChunks: 0, reclaimableChunks: 0 };
  const meta = readMeta(ctx.layout.meta);
  if (!(ctx.config.autoGc || compact) || !meta || !storeExists(ctx.layout)) return none;
  const store = await openStore(ctx.layout, meta.dim, { create: false });
  let look: Look | null;
  try {
    look = ctx.config.autoGc ? await lookAt(ctx, store) : null;
    // `compact`: on the store already open, unless gc, which compacts, is due.
    if (compact && !look?.due) await store.compactIfFragmented();
  } finally {
    store.close();
  }
  if (!look) return none;
  const { stored, reclaimable } = look;
  if (reclaimable === undefined) return { ...none, storedChunks: stored };
  if (!look.due) {
    recordGcCheck(ctx, stored);
    return { looked: true, storedChunks: stored, reclaimableChunks: reclaimable };
  }
  const why = look.overBudget ? `.ocrag/ is over storeBudgetMB (${ctx.config.storeBudgetMB} MB)` : `${Math.round((reclaimable * 100) / stored)}% of ${stored} stored chunks are reclaimable`;
  onNotice?.(`ocrag: ${why}: collecting garbage (autoGc; keeps the checked-out branches and ${ctx.config.keepManifests} recent manifests)`);
  const gc = await collectGarbage(ctx, ctx.config.keepManifests);
  recordGcCheck(ctx, stored - gc.chunksRemoved);
  return { looked: true, storedChunks: stored, reclaimableChunks: reclaimable, gc };
}

/** What a look at the store found; `reclaimable` unset when it had not grown enough to be measured again. */
interface Look {
  stored: number;
  reclaimable?: number;
  overBudget: boolean;
  due: boolean;
}

async function lookAt(ctx: IndexContext, store: ChunkStore): Promise<Look> {
  const budget = ctx.config.storeBudgetMB * 1024 * 1024;
  const overBudget = budget > 0 && dirSize(ctx.layout.dir) > budget;
  const last = readJson<GcCheck>(ctx.layout.gcCheck);
  const stored = await store.countChunks();
  if (!overBudget && typeof last?.chunks === 'number' && stored < last.chunks * REGROWTH) return { stored, overBudget, due: false };
  const { kept } = await chooseManifests(ctx, ctx.config.keepManifests);
  const referenced = referencedBlobs(ctx, kept.values());
  let reclaimable = 0;
  for (const [blob, n] of await store.chunkCounts()) if (!referenced.has(blob)) reclaimable += n;
  return { stored, reclaimable, overBudget, due: reclaimable > 0 && (overBudget || reclaimable * 100 >= stored * ctx.config.autoGcPercent) };
}

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
    const { gc } = await collectGarbageIfDue(ctx, onNotice, compact);
    if (!gc) return summary;
    return { ...summary, garbageCollected: { manifestsRemoved: gc.manifestsRemoved.length, chunksRemoved: gc.chunksRemoved, bytesFreed: Math.max(0, gc.bytesBefore - gc.bytesAfter) } };
  } catch (e) {
    onNotice?.(`ocrag: automatic gc skipped: ${(e as Error).message}`);
    return summary;
  }
}
