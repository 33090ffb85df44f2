import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Embedder } from '../embed/index.js';
import { listTree, type TreeEntry } from '../git/tree.js';
import type { Retriever } from '../search/candidates.js';
import { snapshotRetriever } from '../search/snapshot-retriever.js';
import type { IndexIdentity } from '../store/identity.js';
import type { RestoredState } from '../search/resident-snapshot.js';
import { ensureGitExclude, type IndexLayout } from '../store/layout.js';
import type { Manifest } from '../store/manifest.js';
import { readRemoteSearchSet } from '../store/remote.js';
import { buildManifest } from './build-manifest.js';
import { requireHead } from './manifest-state.js';
import type { IndexContext } from './index-context.js';
import { checkRemote } from './read-through.js';
import { placeSearchSet } from './remote-search-set.js';
import { selectFiles } from './select.js';
import { IMPORT_SAMPLE, pathsByBlob, verifierFor } from './verify/index.js';
import { asideModelFor } from './aside-model.js';
import { identityWith } from './identity-with.js';

/**
 * A fresh clone's first answer, before its own index exists: the search-ready set the team published for HEAD
 * (share/publish-search-set.ts), fetched once, checked and searched as it is, while an index run copies the
 * chunks behind it. On tokio (865 files) that is one 20 MB object instead of 56 MB of tables copied and written.
 */
export interface RemoteFirstView {
  /** HEAD's selected files whose blobs the set holds (the others have no chunks: binary, empty, skipped). */
  manifest: Manifest;
  retriever: Retriever;
  /** Whether this call fetched the set (false: an earlier first search of this clone did). */
  fetched: boolean;
}

/** Where a fresh clone keeps HEAD's published set until an index run of its own holds the commit. */
export function remoteFirstFile(layout: Pick<IndexLayout, 'dir'>, commit: string, identity: IndexIdentity): string {
  const tag = createHash('sha256').update(`${identity.modelId}\n${identity.dim}\n${identity.chunkerVersion}`).digest('hex').slice(0, 12);
  return path.join(remoteFirstDir(layout), `${commit}-${tag}.snap`);
}

const remoteFirstDir = (layout: Pick<IndexLayout, 'dir'>) => path.join(layout.dir, 'remote-first');

/** Once the index holds a commit, its searches go through the manifest: the first answer's files go. */
export function dropRemoteFirst(layout: Pick<IndexLayout, 'dir'>): void {
  fs.rmSync(remoteFirstDir(layout), { recursive: true, force: true });
}

/**
 * HEAD's first answer from the team's remote, for a clone with a remote configured and no index of its own
 * (service/remote-first-answer.ts decides), or null: nothing published for HEAD, or the remote unreachable (the
 * caller indexes as before and says why). A remote of another model or chunker is refused (ArtifactError), as by an index run.
 * Every row is checked as read-through checks it: its chunk id derived again from blob, span, model and chunker,
 * its blob one of HEAD's tree, its text that blob's and a keyed sample cut and embedded again (verify/).
 */
export async function remoteFirstView(ctx: IndexContext, embedder: Embedder): Promise<RemoteFirstView | null> {
  const { commit, tree } = requireHead(ctx.head);
  const identity = identityWith(embedder);
  const file = remoteFirstFile(ctx.layout, commit, identity);
  const entries = await listTree(ctx.repo.root, tree);
  const fetched = !fs.existsSync(file);
  // A search beside this one may place it first (then it is there, checked by that search).
  const placed = fetched ? await fetchInto(ctx, embedder, identity, commit, file, entries) : null;
  if (fetched && !placed && !fs.existsSync(file)) return null;
  const restored = snapshotRetriever(file, embedder, placed ?? undefined);
  if (!restored) return null;
  const held = selectFiles(entries, ctx.config).files.filter((f) => restored.blobs.has(f.blob));
  const manifest = buildManifest(ctx, ctx.head.branch, commit, tree, identity.modelId, { files: held, skipped: [] }, new Map());
  return { manifest, retriever: restored.retriever, fetched };
}

/**
 * Fetches HEAD's published set and places it when every row holds against this clone's blobs (verify/: every
 * text, a keyed sample of breadcrumbs and vectors): the set as read and checked, or null. A set that does not hold
 * is not used: the search indexes first, and that run copies only rows that hold.
 */
async function fetchInto(ctx: IndexContext, embedder: Embedder, identity: IndexIdentity, commit: string, file: string, entries: TreeEntry[]): Promise<RestoredState | null> {
  // Unreachable says nothing here: the index run that follows says it once.
  const remote = await checkRemote(ctx, identity);
  if (!remote) return null;
  const [published, model] = await Promise.all([readRemoteSearchSet(remote, commit, identity).catch(() => null), asideModelFor(ctx.config.model, embedder)]);
  if (!published) return null;
  ensureGitExclude(ctx.repo);
  const treeBlobs = new Set(entries.map((e) => e.blob));
  const paths = pathsByBlob(entries.map((e) => [e.path, e.blob]));
  // Its sample cut and embedded on a worker thread while this one checks every row: nothing is used before `finish`.
  const verifier = verifierFor(ctx, { dim: identity.dim, paths, blobs: treeBlobs, plan: IMPORT_SAMPLE, embedder: async () => embedder, aside: { model } });
  let read: RestoredState | null = null;
  await placeSearchSet(published.body, file, identity, (c) => treeBlobs.has(c.blob), verifier, (placed) => (read = placed));
  return read;
}

