import fs from 'node:fs';
import { BASE_CHUNKER_VERSION, chunkerVersion, parseChunkerVersions } from '../chunk/version.js';
import type { ChunkStore } from '../store/contract.js';
import type { ModelIdentity } from '../store/identity.js';
import { storeEntries } from '../store/layout.js';
import { assertSameModel, readMeta, STORE_FORMAT, TEXT_DECODING, writeMeta } from '../store/meta.js';
import { hasTables, openStore, storeExists } from '../store/open-store.js';
import { dropOutdatedChunks } from './chunker-upgrade.js';
import { rereadMisreadText } from './misread-text.js';
import { DEFAULT_MODEL_ID } from '../embed/index.js';
import { supersededDefaultModel } from './manifest-state.js';
import type { IndexContext } from './index-context.js';

/**
 * Opens the store, creating it for this model, refusing another model's store, upgrading an old layout's in place,
 * and an old chunker's: all of it for another base version, else the chunks of the languages whose chunking changed
 * (chunker-upgrade.ts). The caller holds the index lock.
 */
export async function openStoreFor(ctx: IndexContext, identity: ModelIdentity, opts: { onNotice?: (message: string) => void }): Promise<ChunkStore> {
  await dropStaleStore(ctx, identity, opts);
  if (!fs.existsSync(ctx.layout.meta)) writeStoreMeta(ctx, identity);
  const store = await openStore(ctx.layout, identity.dim);
  try {
    await store.upgrade(opts.onNotice);
    await dropOutdatedChunks(store, readMeta(ctx.layout.meta), opts);
    await rereadMisreadText(ctx, store, opts.onNotice);
  } catch (e) {
    store.close();
    throw e;
  }
  // The tables tell the layout; the record follows them (after an upgrade, or one killed after its switch).
  const meta = readMeta(ctx.layout.meta);
  if (meta && meta.format !== STORE_FORMAT) writeMeta(ctx.layout.meta, { ...meta, format: STORE_FORMAT });
  return store;
}

/**
 * Why the index must be embedded again whole though it still answers: made for the superseded default model, or by
 * another base chunker. The one-line notice of that re-index (built beside: rebuild.ts), or null. Reads store.json
 * only: an index run that has nothing to embed never loads LanceDB.
 */
export function rebuildReason(ctx: IndexContext): string | null {
  const superseded = supersededDefaultModel(ctx);
  if (superseded) return `ocrag: the default model changed (${superseded} → ${DEFAULT_MODEL_ID}: it reads Chinese now); re-indexing everything once`;
  const meta = readMeta(ctx.layout.meta);
  if (meta && parseChunkerVersions(meta.chunkerVersion).base !== BASE_CHUNKER_VERSION) return `ocrag: the chunker changed (${meta.chunkerVersion} → ${chunkerVersion()}); re-indexing everything once`;
  return null;
}

/**
 * Refuses a store of another model, and clears one that cannot be built on: past answering (without a record of
 * its model, or its tables gone while the record vouches for their chunks), or, for an import, one rebuildReason
 * names (an index run rebuilds that beside it instead).
 */
export async function dropStaleStore(ctx: IndexContext, identity: ModelIdentity, opts: { onNotice?: (message: string) => void }): Promise<void> {
  const meta = readMeta(ctx.layout.meta);
  if (meta) assertSameModel(meta, identity);
  const reason = rebuildReason(ctx);
  if (reason) opts.onNotice?.(reason);
  if (reason || (meta ? !(await hasTables(ctx.layout)) : storeExists(ctx.layout))) clearIndex(ctx);
}

/** Records the store's identity; a new record also starts a new store generation (search snapshots key on it). */
export function writeStoreMeta(ctx: IndexContext, identity: ModelIdentity): void {
  writeMeta(ctx.layout.meta, { format: STORE_FORMAT, modelId: identity.modelId, dim: identity.dim, chunkerVersion: chunkerVersion(), createdAt: new Date().toISOString(), decoding: TEXT_DECODING });
}

/** After an index run has embedded what a chunker upgrade left unknown: the store's record says so. */
export function finishChunkerUpgrade(ctx: IndexContext, identity: ModelIdentity): void {
  if (readMeta(ctx.layout.meta)?.chunkerVersion !== chunkerVersion()) writeStoreMeta(ctx, identity);
}

/** Removes vectors, manifests and store identity, and all derived from them; keeps the user's config. */
export function clearIndex(ctx: IndexContext): void {
  for (const p of storeEntries(ctx.layout)) fs.rmSync(p, { recursive: true, force: true });
}
