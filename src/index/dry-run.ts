import { BlobReader } from '../git/blobs.js';
import { listTree } from '../git/tree.js';
import type { BlobState } from '../store/blob-state.js';
import { asStoreDamage } from '../store/damage.js';
import { readMeta } from '../store/meta.js';
import { openStore, storeExists } from '../store/open-store.js';
import { outdatedChunks } from './chunker-upgrade.js';
import { requireHead } from './manifest-state.js';
import type { IndexContext } from './index-context.js';
import { classifyContent, selectFiles } from './select.js';

export interface IndexPlan {
  commit: string;
  files: number;
  newBlobs: number;
  knownBlobs: number;
  /** Reason → paths. */
  skipped: Record<string, string[]>;
}

/** What `ocrag index` would do, read-only: the selection, and the content checks of blobs it would read. */
export async function dryRun(ctx: IndexContext): Promise<IndexPlan> {
  const { commit, tree } = requireHead(ctx.head);
  const selection = selectFiles(await listTree(ctx.repo.root, tree), ctx.config);
  const meta = readMeta(ctx.layout.meta);
  // What the store knows of a blob; nothing when a run would read it.
  let storedState = (_blob: string): BlobState | undefined => undefined;
  if (meta && storeExists(ctx.layout)) {
    const state = await openStore(ctx.layout, meta.dim, { create: false })
      .then(async (store) => {
        try {
          const state = await store.blobState();
          // Chunks of a language's older chunker are dropped by the run, and their blobs embedded again.
          for (const blob of (await outdatedChunks(store, meta)).blobs) if (state.get(blob) === 'chunks') state.delete(blob);
          return state;
        } finally {
          store.close();
        }
      })
      .catch((e) => Promise.reject(asStoreDamage(e, ctx.layout.tables)));
    storedState = (blob) => state.get(blob);
  }
  const skipped: Record<string, string[]> = {};
  const skip = (reason: string, path: string) => (skipped[reason] ??= []).push(path);
  for (const s of selection.skipped) skip(s.reason, s.path);
  const reader = new BlobReader(ctx.repo.root);
  const newBlobs = new Set<string>();
  let known = 0;
  let files = 0;
  try {
    for (const f of selection.files) {
      const state = storedState(f.blob);
      if (state && state !== 'empty' && state !== 'chunks') skip(state, f.path);
      if (state) {
        known++;
        if (state === 'empty' || state === 'chunks') files++;
        continue;
      }
      const bytes = await reader.read(f.blob);
      const content = bytes ? classifyContent(bytes, ctx.config.maxLineChars) : { reason: 'binary' as const };
      if ('reason' in content) skip(content.reason, f.path);
      else {
        files++;
        newBlobs.add(f.blob);
      }
    }
  } finally {
    await reader.close();
  }
  return { commit, files, newBlobs: newBlobs.size, knownBlobs: known, skipped };
}
