import fs from 'node:fs';
import { currentManifest, isUpToDate, type IndexContext } from '../index/context.js';
import { reclaimableChunks } from '../index/gc.js';
import { asStoreDamage } from '../store/damage.js';
import { listManifests, readManifest } from '../store/manifest.js';
import { readMeta } from '../store/meta.js';
import { openStore, storeExists } from '../store/open-store.js';
import { dirSize } from '../util/dir-size.js';

export interface IndexStatus {
  root: string;
  branch: string | null;
  head: string | null;
  indexed: { commit: string; tree: string; indexedAt: string } | null;
  upToDate: boolean;
  model: { id: string; dim: number } | null;
  configuredModel: string;
  files: number;
  blobs: number;
  chunks: number;
  chunksStored: number;
  /** Chunks that no manifest references: what `ocrag gc` would free. */
  chunksReclaimable: number;
  skipped: Record<string, { count: number; examples: string[] }>;
  sizeOnDisk: number;
  manifests: { key: string; branch: string | null; commit: string; files: number }[];
}

/** A read-only report of the index for the checked-out commit; never builds or writes anything. */
export async function indexStatus(ctx: IndexContext): Promise<IndexStatus> {
  const manifest = currentManifest(ctx);
  const meta = readMeta(ctx.layout.meta);
  let chunks = 0;
  let chunksStored = 0;
  let chunksReclaimable = 0;
  const blobs = new Set(Object.values(manifest?.files ?? {}));
  if (meta && storeExists(ctx.layout)) {
    try {
      const store = await openStore(ctx.layout, meta.dim, { create: false });
      try {
        const counts = await store.chunkCounts();
        for (const [blob, n] of counts) {
          chunksStored += n;
          if (blobs.has(blob)) chunks += n;
        }
        chunksReclaimable = await reclaimableChunks(ctx, counts);
      } finally {
        store.close();
      }
    } catch (e) {
      throw asStoreDamage(e, ctx.layout.tables);
    }
  }
  const skipped: IndexStatus['skipped'] = {};
  for (const [path, reason] of Object.entries(manifest?.skipped ?? {})) {
    const entry = (skipped[reason] ??= { count: 0, examples: [] });
    entry.count++;
    if (entry.examples.length < 5) entry.examples.push(path);
  }
  return {
    root: ctx.repo.root,
    branch: ctx.head.branch,
    head: ctx.head.commit,
    indexed: manifest ? { commit: manifest.commit, tree: manifest.tree, indexedAt: manifest.indexedAt } : null,
    upToDate: isUpToDate(ctx, manifest),
    model: meta ? { id: meta.modelId, dim: meta.dim } : null,
    configuredModel: ctx.config.model,
    files: Object.keys(manifest?.files ?? {}).length,
    blobs: blobs.size,
    chunks,
    chunksStored,
    chunksReclaimable,
    skipped,
    sizeOnDisk: fs.existsSync(ctx.layout.dir) ? dirSize(ctx.layout.dir) : 0,
    manifests: listManifests(ctx.layout.manifests).flatMap((key) => {
      const m = readManifest(ctx.layout.manifests, key);
      return m ? [{ key, branch: m.branch, commit: m.commit, files: Object.keys(m.files).length }] : [];
    }),
  };
}
