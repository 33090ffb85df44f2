import fs from 'node:fs';
import { prefixedKey } from '../git/path-key.js';
import { currentManifest } from '../index/manifest-state.js';
import type { IndexContext } from '../index/index-context.js';
import { chooseManifests, reclaimableChunks } from '../index/gc.js';
import { asStoreDamage } from '../store/damage.js';
import { listManifests, readManifest } from '../store/manifest.js';
import { readMeta } from '../store/meta.js';
import { openStore, storeExists } from '../store/open-store.js';
import { countsOf, indexedFiles, searchedFiles, viewScans } from './index-counts.js';
import { dirSize } from '../util/dir-size.js';
import { ArtifactError } from '../util/errors.js';
import { openRemote, readRemoteIdentity } from '../store/remote.js';
import { readRemoteRun, type RemoteRun } from '../store/remote-run.js';

export interface IndexStatus {
  root: string;
  /** A plain folder outside git, indexed as a knowledge base of its own: no branch or commit; its files and sources are what search sees. */
  plainFolder: boolean;
  branch: string | null;
  head: string | null;
  indexed: { commit: string; tree: string; indexedAt: string } | null;
  upToDate: boolean;
  model: { id: string; dim: number } | null;
  configuredModel: string;
  /** Files and chunks search sees (IndexCounts, index-counts.ts). */
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
  /** Each added source (a plain folder's own files first, named ""), as its last scan found it: files searched and files skipped. */
  sources: { name: string; root: string; files: number; skipped: number }[];
  /** The team's remote store, when one is configured: its URI (never a credential), whether it answers now, and what the last index run copied from it. */
  remote: RemoteStatus | null;
}

export interface RemoteStatus {
  uri: string;
  reachable: boolean;
  /** Whether anything was published there (its identity exists). */
  published: boolean;
  /** Why it is not usable now, when it is not (unreachable, refused, no credentials). */
  problem: string | null;
  lastRun: RemoteRun | null;
}

/** A read-only report of the index for the checked-out commit; never builds or writes anything. */
export async function indexStatus(ctx: IndexContext): Promise<IndexStatus> {
  const manifest = currentManifest(ctx);
  const meta = readMeta(ctx.layout.meta);
  let chunks = 0;
  let chunksStored = 0;
  let chunksReclaimable = 0;
  let counts = new Map<string, number>();
  const scans = viewScans(ctx);
  const files = indexedFiles(ctx, manifest, scans);
  const blobs = new Set(files.values());
  if (meta && storeExists(ctx.layout)) {
    try {
      const store = await openStore(ctx.layout, meta.dim, { create: false });
      try {
        counts = await store.chunkCounts();
        for (const n of counts.values()) chunksStored += n;
        chunks = countsOf(files, counts).chunks;
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
  // What the sources' last scans left out is listed as the tree's skipped files are, by the path results show.
  // Examples are keys (`path-key.ts`): a name that is not plain UTF-8 appears quoted, as git status shows it.
  const sourceSkips = scans.flatMap(({ spec, scan }) => Object.entries(scan.skipped ?? {}).map(([rel, reason]) => [spec.name ? prefixedKey(`${spec.name}:`, rel) : rel, reason] as const));
  for (const [path, reason] of [...Object.entries(manifest?.skipped ?? {}), ...sourceSkips]) {
    const entry = (skipped[reason] ??= { count: 0, examples: [] });
    entry.count++;
    if (entry.examples.length < 5) entry.examples.push(path);
  }
  return {
    root: ctx.repo.root,
    plainFolder: ctx.kind.match({ git: () => false, folder: () => true }),
    branch: ctx.head.branch,
    head: ctx.head.commit,
    indexed: manifest ? { commit: manifest.commit, tree: manifest.tree, indexedAt: manifest.indexedAt } : null,
    upToDate: ctx.kind.upToDate(ctx),
    model: meta ? { id: meta.modelId, dim: meta.dim } : null,
    configuredModel: ctx.config.model,
    files: files.size,
    blobs: blobs.size,
    chunks,
    chunksStored,
    chunksReclaimable,
    skipped,
    sizeOnDisk,
    manifests: await manifestSizes(ctx, counts, chunksStored ? sizeOnDisk / chunksStored : 0),
    sources: scans.map(({ spec, scan }) => ({ name: spec.name, root: spec.root, files: searchedFiles(scan).length, skipped: Object.keys(scan.skipped ?? {}).length })),
    remote: ctx.config.remote ? await remoteStatus(ctx) : null,
  };
}

/** Asks the remote for its identity, the one object every use of it reads first; nothing is written. */
async function remoteStatus(ctx: IndexContext): Promise<RemoteStatus> {
  const lastRun = readRemoteRun(ctx.layout.remoteRun);
  let uri = ctx.config.remote;
  try {
    const remote = openRemote(ctx.config.remote, ctx.layout);
    uri = remote.uri;
    const identity = await readRemoteIdentity(remote);
    return { uri, reachable: true, published: identity !== null, problem: identity ? null : 'nothing published yet', lastRun };
  } catch (e) {
    // A foreign identity answered; anything else did not.
    const message = (e as Error).message.replace(/^\S+: /, '');
    return { uri, reachable: e instanceof ArtifactError, published: e instanceof ArtifactError, problem: message, lastRun };
  }
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
