import fs from 'node:fs';
import { currentManifest, isUpToDate, type IndexContext } from '../index/context.js';
import { chooseManifests, reclaimableChunks } from '../index/gc.js';
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
  /** Every manifest: its chunks, their share of the store on disk, and whether `gc` keeps it. */
  manifests: { key: string; branch: string | null; commit: string; files: number; chunks: number; approxBytes: number; keptByGc: boolean }[];
}

/** A read-only report of the index for the checked-out commit; never builds or writes anything. */
export async function indexStatus(ctx: IndexContext): Promise<IndexStatus> {
  const manifest = currentManifest(ctx);
  const meta = readMeta(ctx.layout.meta);
  let chunks = 0;
  let chunksStored = 0;
  let chunksReclaimable = 0;
  let counts = new Map<string, number>();
  const blobs = new Set(Object.values(manifest?.files ?? {}));
  if (meta && storeExists(ctx.layout)) {
    try {
      const store = await openStore(ctx.layout, meta.dim, { create: false });
      try {
        counts = await store.chunkCounts();
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
  const sizeOnDisk = fs.existsSync(ctx.layout.dir) ? dirSize(ctx.layout.dir) : 0;
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
    sizeOnDisk,
    manifests: await manifestSizes(ctx, counts, chunksStored ? sizeOnDisk / chunksStored : 0),
  };
}

/** Each manifest's chunks (what its blobs hold in the store) and their share of the store's bytes. */
async function manifestSizes(ctx: IndexContext, counts: Map<string, number>, bytesPerChunk: number): Promise<IndexStatus['manifests']> {
  const { kept } = await chooseManifests(ctx, ctx.config.keepManifests);
  return listManifests(ctx.layout.manifests).flatMap((key) => {
    const m = readManifest(ctx.layout.manifests, key);
    if (!m) return [];
    let chunks = 0;
    for (const blob of new Set(Object.values(m.files))) chunks += counts.get(blob) ?? 0;
    return [{ key, branch: m.branch, commit: m.commit, files: Object.keys(m.files).length, chunks, approxBytes: Math.round(chunks * bytesPerChunk), keptByGc: kept.has(key) }];
  });
}
