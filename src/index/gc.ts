import fs from 'node:fs';
import type { BlobState } from '../store/blob-state.js';
import { knownBlobs, listManifests, manifestKey, readManifest, removeManifest, type Manifest } from '../store/manifest.js';
import { readMeta } from '../store/meta.js';
import { sourceBlobs } from '../store/sources.js';
import { viewSources } from './folder.js';
import { openStore, storeExists } from '../store/open-store.js';
import { removeStagingLeftovers } from '../store/staging.js';
import { dirSize } from '../util/dir-size.js';
import { dropOutdatedChunks } from './chunker-upgrade.js';
import type { IndexContext } from './index-context.js';

export interface GcResult {
  manifestsKept: string[];
  manifestsRemoved: string[];
  blobsRemoved: number;
  chunksRemoved: number;
  bytesBefore: number;
  bytesAfter: number;
}

/**
 * Keeps the manifests of every checked-out branch or commit (all worktrees) and the `keep` most recently
 * indexed others; deletes the rest, then the chunks no kept manifest references and those of a language's older
 * chunker, then compacts. Manifests go first, so a crash in between never leaves a manifest that names deleted
 * chunks (a manifest of an older chunker vouches for none).
 */
export async function collectGarbage(ctx: IndexContext, keep: number): Promise<GcResult> {
  const bytesBefore = fs.existsSync(ctx.layout.dir) ? dirSize(ctx.layout.dir) : 0;
  // gc runs under the index lock: a staging folder now is what a killed import left behind.
  removeStagingLeftovers(ctx.layout);
  const { kept, removed } = await chooseManifests(ctx, keep);
  for (const key of removed) removeManifest(ctx.layout.manifests, key);
  const meta = readMeta(ctx.layout.meta);
  let blobsRemoved = 0;
  let chunksRemoved = 0;
  if (meta && storeExists(ctx.layout)) {
    const referenced = referencedBlobs(ctx, kept.values());
    const store = await openStore(ctx.layout, meta.dim, { create: false });
    try {
      const unreferenced = [...(await store.blobState()).keys()].filter((b) => !referenced.has(b));
      blobsRemoved = unreferenced.length;
      chunksRemoved = await store.deleteBlobs(unreferenced);
      // After a language's chunking changed, its old chunks go too (the next index run embeds its files again).
      chunksRemoved += await dropOutdatedChunks(store, meta);
      // Search snapshots still hold the deleted rows; the next search rebuilds them from what is left.
      if (chunksRemoved) fs.rmSync(ctx.layout.resident, { recursive: true, force: true });
      await store.compact();
    } finally {
      store.close();
    }
  }
  return { manifestsKept: [...kept.keys()], manifestsRemoved: removed, blobsRemoved, chunksRemoved, bytesBefore, bytesAfter: dirSize(ctx.layout.dir) };
}

/** The manifests gc keeps (checked-out ones and the `keep` most recently indexed others) and those it drops. */
export async function chooseManifests(ctx: IndexContext, keep: number): Promise<{ kept: Map<string, Manifest>; removed: string[] }> {
  // A plain folder has no branches, nor manifests: nothing is pinned.
  const { branches, detached } = await ctx.kind.checkedOut(ctx);
  const pinned = new Set([...[...branches].map((b) => manifestKey(b, '')), ...[...detached].map((c) => manifestKey(null, c))]);
  const all = listManifests(ctx.layout.manifests)
    .map((key) => ({ key, manifest: readManifest(ctx.layout.manifests, key) }))
    .sort((a, b) => (b.manifest?.indexedAt ?? '').localeCompare(a.manifest?.indexedAt ?? ''));
  const kept = new Map<string, Manifest>();
  const removed: string[] = [];
  let others = 0;
  for (const { key, manifest } of all) {
    if (manifest && (pinned.has(key) || others++ < keep)) kept.set(key, manifest);
    else removed.push(key);
  }
  return { kept, removed };
}

/** Chunks no manifest references (what gc would delete with nothing else removed). */
export async function reclaimableChunks(ctx: IndexContext, counts: Map<string, number>): Promise<number> {
  const referenced = referencedBlobs(ctx, listManifests(ctx.layout.manifests).flatMap((key) => readManifest(ctx.layout.manifests, key) ?? []));

  let n = 0;
  for (const [blob, count] of counts) if (!referenced.has(blob)) n += count;
  return n;
}

/** Blobs whose chunks gc keeps: those of these manifests, and those the sources' last scans found. */
export function referencedBlobs(ctx: IndexContext, manifests: Iterable<Manifest>): Map<string, BlobState> {
  const referenced = new Map<string, BlobState>();
  for (const m of manifests) knownBlobs(m, referenced);
  const names = viewSources(ctx).map((s) => s.name);
  for (const blob of sourceBlobs(ctx.layout.sourceScans, names)) if (!referenced.has(blob)) referenced.set(blob, 'chunks');
  return referenced;
}
