import { currentManifest, requireHead } from '../index/manifest-state.js';
import type { IndexContext } from '../index/index-context.js';
import type { ModelIdentity } from '../store/identity.js';
import { manifestKey, type Manifest } from '../store/manifest.js';
import { openStore } from '../store/open-store.js';
import { assertRemoteIdentity, openRemote, readRemoteIdentity, writeRemoteIdentity, writeRemoteManifest, type RemoteStore } from '../store/remote.js';
import { acquireLease } from '../store/lease.js';
import { OcragError } from '../util/errors.js';
import { partitionBlobs } from './export.js';
import { allOf } from '../util/all-of.js';
import { localIdentity } from './local-identity.js';
import { publishSearchSet } from './publish-search-set.js';
import { remoteRepository } from './remote-repository.js';

/** The index to publish from: its context, how to bring HEAD's index up to date, and the model when its size is not described. */
export interface PublishSource {
  ctx: IndexContext;
  indexHead: () => Promise<unknown>;
  model(): Promise<ModelIdentity>;
}

export interface PublishSummary {
  remote: string;
  /** The repository's folder of manifests in the remote (share/remote-repository.ts). */
  repository: string;
  /** The key the ref's manifest is published under (as in `.ocrag/manifests/`). */
  manifestKey: string;
  /** Bytes of the commit's search-ready set (0: none, the tree is searched through store indexes). */
  searchSetBytes: number;
  branch: string | null;
  commit: string;
  tree: string;
  files: number;
  /** Distinct blobs of the commit (with chunks, or marked), and how many of them the remote lacked. */
  blobs: number;
  blobsAdded: number;
  chunksAdded: number;
  marksAdded: number;
  /** Whether this publish created the remote store (wrote its identity). */
  created: boolean;
  compacted: boolean;
  seconds: number;
}

/** Blobs copied per remote commit: each copy is one LanceDB commit per table on the remote. */
const BLOBS_PER_COPY = 2000;

/**
 * Appends HEAD's index to the team's remote store: the chunks and marks of the blobs the remote lacks (content
 * it holds is never written twice), then the ref's manifest, all under the publishers' lease (store/lease.ts), so two
 * CI jobs publishing at once take turns. The remote's identity is written by the first publish and checked by
 * every later one. HEAD is indexed first when it is behind (reading through the remote itself).
 */
export async function publishHead(source: PublishSource, opts: { compact?: boolean; onNotice?: (message: string) => void } = {}): Promise<PublishSummary> {
  const started = performance.now();
  const { ctx } = source;
  ctx.kind.requireRepository(ctx, 'ocrag publish');
  requireHead(ctx.head);
  if (!ctx.config.remote) throw new OcragError('no remote store configured: set OCRAG_REMOTE or "remote" in .ocrag/config.json (e.g. s3://bucket/prefix)');
  const remote = openRemote(ctx.config.remote, ctx.layout);
  const repository = await remoteRepository(ctx);
  // Asked first, so a remote that can't be reached, or is foreign, fails the job before it indexes anything.
  const early = await readRemoteIdentity(remote);
  if (early) assertRemoteIdentity(remote, early, await localIdentity(ctx, () => source.model()));
  await source.indexHead();
  const manifest = currentManifest(ctx);
  if (!manifest) throw new OcragError('HEAD could not be indexed, so there is nothing to publish');
  const identity = await localIdentity(ctx, () => source.model());
  const lease = await acquireLease(remote.objects, { onWait: (holder) => opts.onNotice?.(`ocrag: waiting for ${holder}, which is publishing to ${remote.uri}`) });
  try {
    const theirs = await readRemoteIdentity(remote);
    if (theirs) assertRemoteIdentity(remote, theirs, identity);
    else await writeRemoteIdentity(remote, identity);
    const counts = await appendMissing(ctx, remote, identity.dim, manifest, opts.compact === true);
    const key = manifestKey(manifest.branch, manifest.commit);
    const searchSet = await publishSearchSet(ctx, remote, identity, manifest);
    await writeRemoteManifest(remote, repository, key, manifest);
    return { remote: remote.uri, repository, manifestKey: key, searchSetBytes: searchSet?.bytes ?? 0, branch: manifest.branch, commit: manifest.commit, tree: manifest.tree, files: Object.keys(manifest.files).length, ...counts, created: !theirs, seconds: (performance.now() - started) / 1000 };
  } finally {
    await lease.release();
  }
}

/**
 * Copies the chunks and marks the remote lacks from the local store (the caller holds the lease). The blobs are
 * split as an export splits them (share/export.ts), so a file that yields no chunk is published as its mark.
 */
async function appendMissing(ctx: IndexContext, remote: RemoteStore, dim: number, manifest: Manifest, compact: boolean): Promise<Pick<PublishSummary, 'blobs' | 'blobsAdded' | 'chunksAdded' | 'marksAdded' | 'compacted'>> {
  const [target, local] = [await openStore(remote.location, dim, { create: true }), await openStore(ctx.layout, dim, { create: false })];
  try {
    const { chunkBlobs, marks } = await partitionBlobs(local, manifest);
    const held = await target.blobState([...chunkBlobs, ...marks.map((m) => m.blob)]);
    const counts = { blobs: chunkBlobs.length + marks.length, blobsAdded: 0, chunksAdded: 0, marksAdded: 0, compacted: false };
    const lacking = chunkBlobs.filter((b) => !held.has(b));
    for (let at = 0; at < lacking.length; at += BLOBS_PER_COPY) counts.chunksAdded += await target.addChunkBatchesNotStored(await allOf(local.chunkBatchesOf(lacking.slice(at, at + BLOBS_PER_COPY))));
    const newMarks = marks.filter((m) => !held.has(m.blob));
    await target.addMarks(newMarks);
    counts.blobsAdded = lacking.length + newMarks.length;
    counts.marksAdded = newMarks.length;
    if (compact) {
      await target.compact();
      counts.compacted = true;
    }
    return counts;
  } finally {
    target.close();
    local.close();
  }
}
