import { currentManifest } from '../index/manifest-state.js';
import type { IndexContext } from '../index/index-context.js';
import type { ChunksInHand } from '../index/chunks-in-hand.js';
import { compactSnapshot, keepSnapshotCurrent } from '../search/search.js';
import { readMeta } from '../store/meta.js';
import { StoreHandle } from '../store/store-handle.js';
import type { IndexSummary } from '../index/known-tree.js';

/**
 * After a run that stored something, under its lock: the commit is searchable once its manifest and the search
 * set's snapshot (from the chunks in hand) are written, so gc, the store's compaction the run deferred
 * (indexer.ts `deferCompaction`) and the snapshot's own come after, off the clock of whoever waits to search it.
 */
export async function settleRun(ctx: IndexContext, summary: IndexSummary, inHand: ChunksInHand | undefined, onNotice?: (message: string) => void): Promise<IndexSummary> {
  if (inHand) await refreshSearchSnapshot(ctx, inHand);
  const after = await (await import('../index/gc-policy.js')).summaryAfterGc(ctx, summary, onNotice, true);
  if (inHand) await compactSearchSnapshot(ctx);
  return after;
}

/**
 * An index run that stored new blobs (a hook's, after a commit) leaves the snapshot a one-shot search restores
 * behind: bringing it up to date after the run, off the search's clock, spares the next search opening LanceDB.
 * The chunks the run stored are taken as it held them (`inHand`), and with them a first index writes the
 * snapshot too. Best effort: on any failure the next search does it.
 */
export async function refreshSearchSnapshot(ctx: IndexContext, inHand?: ChunksInHand): Promise<void> {
  try {
    const manifest = currentManifest(ctx);
    const meta = readMeta(ctx.layout.meta);
    if (!manifest || !meta) return;
    const store = new StoreHandle(ctx.layout, meta.dim, meta.createdAt);
    try {
      const held = inHand?.any ? async () => inHand.resolve(await store.get()) : false;
      await keepSnapshotCurrent(store, meta.modelId, new Set(Object.values(manifest.files)), held);
    } finally {
      store.close();
    }
  } catch {
    // A cache: the search that needs it builds it.
  }
}

/**
 * After a run that refreshed the snapshot, once its commit is searchable: the snapshot written whole when its
 * segments reached their limit, so the next commit's run appends again. Best effort, as a cache.
 */
export async function compactSearchSnapshot(ctx: IndexContext): Promise<void> {
  try {
    const meta = readMeta(ctx.layout.meta);
    if (!meta) return;
    const store = new StoreHandle(ctx.layout, meta.dim, meta.createdAt);
    try {
      await compactSnapshot(store, meta.modelId);
    } finally {
      store.close();
    }
  } catch {
    // The next search compacts it.
  }
}
