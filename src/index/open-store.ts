import fs from 'node:fs';
import path from 'node:path';
import { CHUNKER_VERSION } from '../chunk/version.js';
import { ChunkStore } from '../store/chunk-store.js';
import type { ModelIdentity } from '../store/identity.js';
import { assertSameModel, readMeta, writeMeta } from '../store/meta.js';
import { removeStagingLeftovers } from '../store/staging.js';
import type { IndexContext } from './context.js';

/** Opens the store, creating it for this model, refusing another model's store, and upgrading an old chunker's. */
export async function openStoreFor(ctx: IndexContext, identity: ModelIdentity, opts: { onNotice?: (message: string) => void }): Promise<ChunkStore> {
  await dropStaleStore(ctx, identity, opts);
  if (!fs.existsSync(ctx.layout.meta)) writeStoreMeta(ctx, identity);
  return ChunkStore.open(ctx.layout.lance, identity.dim);
}

/**
 * Refuses a store of another model, and clears one whose chunks can't be trusted: of an older chunker, without a
 * record of its model, or whose tables are gone while manifests still vouch for their chunks.
 */
export async function dropStaleStore(ctx: IndexContext, identity: ModelIdentity, opts: { onNotice?: (message: string) => void }): Promise<void> {
  const meta = readMeta(ctx.layout.meta);
  if (meta) {
    assertSameModel(meta, identity);
    if (meta.chunkerVersion !== CHUNKER_VERSION) {
      opts.onNotice?.(`ocrag: the chunker changed (${meta.chunkerVersion} → ${CHUNKER_VERSION}); re-indexing everything once`);
      clearIndex(ctx);
      return;
    }
  } else if (fs.existsSync(ctx.layout.lance)) {
    clearIndex(ctx);
    return;
  }
  if (meta && !(await ChunkStore.hasTables(ctx.layout.lance))) clearIndex(ctx);
}

/** Records the store's identity; a new record also starts a new store generation (search snapshots key on it). */
export function writeStoreMeta(ctx: IndexContext, identity: ModelIdentity): void {
  writeMeta(ctx.layout.meta, { format: 1, modelId: identity.modelId, dim: identity.dim, chunkerVersion: CHUNKER_VERSION, createdAt: new Date().toISOString() });
}

/** Removes vectors, manifests and store identity; keeps the user's config. */
export function clearIndex(ctx: IndexContext): void {
  // resident/ holds search-side snapshots of the store's rows: they go with the store.
  for (const p of [ctx.layout.lance, ctx.layout.manifests, ctx.layout.meta, path.join(ctx.layout.dir, 'resident'), path.join(ctx.layout.dir, 'search-indexes.json')]) fs.rmSync(p, { recursive: true, force: true });
  // And what a killed import was building.
  removeStagingLeftovers(ctx.layout.dir);
}
