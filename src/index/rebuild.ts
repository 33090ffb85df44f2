import fs from 'node:fs';
import { residentSnapshotFile, writeTreeSnapshot } from '../search/candidates.js';
import { removeStagingLeftovers, swapIndex } from '../store/index-swap.js';
import { stagedLayout, type IndexLayout } from '../store/layout.js';
import { readMeta } from '../store/meta.js';
import { StoreHandle } from '../store/store-handle.js';
import { dirSize } from '../util/dir-size.js';
import { asStorageError, storageProblem } from '../util/storage-problem.js';
import { currentManifest } from './manifest-state.js';
import type { IndexContext } from './index-context.js';
import { checkpoint } from './crash-point.js';
import { dropRemoteFirst } from './remote-first.js';
import { ChunksInHand } from './chunks-in-hand.js';

export type { ChunksInHand } from './chunks-in-hand.js';

/**
 * A full re-index (`--rebuild`, another base chunker, the old default model) without losing the index:
 * `build` fills a whole new index in this process's staging folder (store, identity, manifest, search snapshot)
 * while searches answer from the current one, which is swapped out only once the new one is complete
 * (store/index-swap.ts). Cancelled, failed or killed before the swap, the current index stays as it was and the
 * build folder goes (now, or at the next run after a kill). The new index holds what `build` indexed alone: other
 * branches' manifests go with the old store, and a checkout of one indexes it again (only blobs the new store
 * lacks). The caller holds the index lock.
 */
export async function rebuildBeside<T>(ctx: IndexContext, build: (staged: IndexContext) => Promise<T>, signal?: AbortSignal, inHand?: ChunksInHand): Promise<T> {
  removeStagingLeftovers(ctx.layout);
  const staged: IndexContext = { ...ctx, layout: stagedLayout(ctx.layout) };
  let result: T;
  try {
    fs.mkdirSync(staged.layout.dir, { recursive: true });
    result = await build(staged);
    await writeSearchSnapshot(staged, ctx.layout, inHand);
    await checkpoint('rebuild.built', signal);
  } catch (e) {
    fs.rmSync(staged.layout.dir, { recursive: true, force: true });
    throw (storageProblem(e) === 'full' ? asStorageError(e, ctx.layout.dir, roomFor(ctx.layout)) : asStorageError(e, ctx.layout.dir)) ?? e;
  }
  try {
    swapIndex(ctx.layout, staged.layout);
  } catch (e) {
    // Before the journal: nothing moved. After it: the next open completes the swap from the build folder.
    if (!fs.existsSync(ctx.layout.rebuildSwap)) fs.rmSync(staged.layout.dir, { recursive: true, force: true });
    throw asStorageError(e, ctx.layout.dir) ?? e;
  }
  // Searches answer from the new manifest: a first answer's set fetched before (remote-first.ts) has served its turn.
  dropRemoteFirst(ctx.layout);
  return result;
}

/**
 * A store built whole by `build` (an import's into a new store): beside the current one and swapped in
 * (rebuildBeside), or in its place when there is none; then the search set's snapshot is written from the rows
 * `build` put in hand, as after a full index, so the first search restores it (tokio: ~2 s of CPU less).
 */
export async function buildStoreWhole<T>(ctx: IndexContext, where: 'beside' | 'in place', build: (ctx: IndexContext, inHand: ChunksInHand) => Promise<T>): Promise<T> {
  const inHand = new ChunksInHand();
  if (where === 'beside') return rebuildBeside(ctx, (staged) => build(staged, inHand), undefined, inHand);
  const built = await build(ctx, inHand);
  await writeSearchSnapshot(ctx, ctx.layout, inHand);
  return built;
}

/**
 * The resident snapshot of HEAD's tree in a store just built whole (a rebuild's, in its build folder; an import's
 * into a new store), so the first search restores it instead of reading the whole store. Built from the chunks the
 * run has in hand when it kept them (reading tokio's back from the store was 1.5-2 s of CPU, a fifth of its
 * rebuild). `live` is where the store's tables will be, which names the snapshot. Best effort: that search builds
 * it otherwise.
 */
async function writeSearchSnapshot(staged: IndexContext, live: IndexLayout, inHand?: ChunksInHand): Promise<void> {
  const manifest = currentManifest(staged);
  const meta = readMeta(staged.layout.meta);
  if (!manifest || !meta) return;
  const store = new StoreHandle(staged.layout, meta.dim, meta.createdAt);
  try {
    // Named as the swapped-in store's own (the name derives from where its tables will be), kept in the build folder.
    const file = residentSnapshotFile({ tables: live.tables, resident: staged.layout.resident }, meta.modelId, meta.createdAt);
    const held = inHand?.any ? async () => inHand.resolve(await store.get()) : undefined;
    await writeTreeSnapshot(store, new Set(Object.values(manifest.files)), file, held);
  } catch {
    // A cache: the first search builds it.
  } finally {
    store.close();
  }
}

/** What a rebuild needs free: a second copy of the store, beside the current one until the swap. */
function roomFor(layout: IndexLayout): string {
  const mb = Math.max(1, Math.ceil((fs.existsSync(layout.tables) ? dirSize(layout.tables) : 0) / (1024 * 1024)));
  return `a second copy of the index while it is rebuilt beside the current one, about ${mb} MB`;
}
