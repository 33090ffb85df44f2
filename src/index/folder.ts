import fs from 'node:fs';
import { chunkerVersion } from '../chunk/version.js';
import type { Manifest } from '../store/manifest.js';
import { readMeta } from '../store/meta.js';
import { storeExists } from '../store/open-store.js';
import { readSources, type SourceSpec } from '../store/sources.js';
import type { ModelIdentity } from '../store/identity.js';
import type { IndexContext } from './index-context.js';
import { selectionKey, supersededDefaultModel } from './manifest-state.js';
import { finishChunkerUpgrade, openStoreFor, rebuildReason } from './open-store.js';

/**
 * A plain folder (no git) as a knowledge base: the folder itself is a source without a name (its files are shown by
 * their path in it, as a work tree's are) laid over an empty manifest, with the sources added to it beside. There
 * is no HEAD to index: an index run makes the store ready and scans them all; a search scans them as they are now.
 */
export function viewSources(ctx: IndexContext, withAdded = true): SourceSpec[] {
  const added = withAdded ? readSources(ctx.layout.sources) : [];
  return [...ctx.kind.ownSources(ctx), ...added];
}

/** What a plain folder's view starts from: nothing, before its files are laid over it. */
export function folderManifest(ctx: IndexContext): Manifest {
  const meta = readMeta(ctx.layout.meta);
  return {
    version: 1,
    branch: null,
    commit: '',
    tree: '',
    modelId: meta?.modelId ?? '',
    chunkerVersion: chunkerVersion(),
    selectionKey: selectionKey(ctx.config),
    indexedAt: meta?.createdAt ?? '',
    files: {},
    skipped: {},
    skippedBlobs: {},
  };
}

/** The folder's store exists and was made by this chunker and model: a search may scan and embed into it. */
export function folderReady(ctx: IndexContext): boolean {
  return readMeta(ctx.layout.meta)?.chunkerVersion === chunkerVersion() && storeExists(ctx.layout) && !supersededDefaultModel(ctx);
}

/**
 * Makes the folder's store ready for this model and chunker: created, or upgraded in place. Chunks a language's
 * chunker change outdated are dropped; the scan that follows embeds their files again. A store that must be redone
 * (a rebuild, the old default model, another base chunker) is built beside instead (CodeIndex's folder run,
 * index/rebuild.ts). The caller holds the index lock.
 */
export async function prepareFolderStore(ctx: IndexContext, identity: ModelIdentity, opts: { onNotice?: (message: string) => void }): Promise<void> {
  fs.mkdirSync(ctx.layout.dir, { recursive: true });
  const store = await openStoreFor(ctx, identity, opts);
  store.close();
  finishChunkerUpgrade(ctx, identity);
}

/**
 * Makes the folder's store ready: in place, or, when it must be redone (asked, or see rebuildReason), a new
 * one built beside it and filled by `scan`, then swapped in (rebuild.ts): `scan`'s answer then, else null. The
 * caller holds the index lock.
 */
export async function readyFolderStore<T>(
  ctx: IndexContext,
  model: () => Promise<ModelIdentity>,
  scan: (staged: IndexContext) => Promise<T>,
  opts: { rebuild?: boolean; signal?: AbortSignal; onNotice?: (message: string) => void },
): Promise<T | null> {
  const stale = opts.rebuild ? null : rebuildReason(ctx);
  if (stale) opts.onNotice?.(stale);
  if (!opts.rebuild && !stale) {
    await prepareFolderStore(ctx, await model(), opts);
    return null;
  }
  const { rebuildBeside } = await import('./rebuild.js');
  return rebuildBeside(ctx, async (staged) => {
    await prepareFolderStore(staged, await model(), opts);
    return scan(staged);
  }, opts.signal);
}
