import type { ReadThroughSummary } from './read-through.js';
import { chunkerVersion } from '../chunk/version.js';
import { listManifests, manifestKey, readManifest, writeManifest, type Manifest, type SkipReason } from '../store/manifest.js';
import { readMeta, readsTextAsBefore, type StoreMeta } from '../store/meta.js';
import { storeExists } from '../store/open-store.js';
import { currentManifest, isUpToDate, requireHead, selectionKey } from './manifest-state.js';
import type { IndexContext } from './index-context.js';
import { emptySelectionWarning } from './warnings.js';

/** What an index run did (or found already done) for the checked-out commit. */
export interface IndexSummary {
  branch: string | null;
  commit: string;
  tree: string;
  upToDate: boolean;
  files: number;
  skipped: Partial<Record<SkipReason, number>>;
  newBlobs: number;
  chunksEmbedded: number;
  chunksTotal: number | null;
  seconds: number;
  /** What the user should be told though the run succeeded (it selected no files, say); absent when nothing. */
  warnings?: string[];
  /** A plain folder's run (no git: branch, commit and tree are empty): the folder indexed. */
  folder?: string;
  /** Present when the run collected garbage by itself afterwards (config autoGc; see gc-policy.ts). */
  garbageCollected?: { manifestsRemoved: number; chunksRemoved: number; bytesFreed: number };
  /** Present when a remote store is configured and was read: what was copied from it instead of embedded. */
  remote?: ReadThroughSummary;
  /** Files and chunks search sees in the index the run left (service/index-counts.ts), when the caller counted them. */
  counts?: { files: number; chunks: number };
}

/**
 * The run for a tree the index already holds, done without the model, the chunker or the store: HEAD's own
 * manifest is current, or another branch's (or commit's) manifest has this very tree and these settings and is
 * filed again under HEAD (a new branch, a switch to a branch whose tip was indexed elsewhere). Null when the
 * tree needs a real run. The caller holds the index lock: the copy names chunks that gc must not take meanwhile.
 */
export function indexKnownTree(ctx: IndexContext, started = performance.now()): IndexSummary | null {
  const { commit, tree } = requireHead(ctx.head);
  // A store whose texts an earlier version read gets one real run, which opens it and reads them again (misread-text.ts).
  if (readsTextAsBefore(metaOrNull(ctx))) return null;
  const own = currentManifest(ctx);
  // HEAD's manifest holds this tree; under another commit when an amend or a rebase changed no file, and then it
  // is filed again, so that it names the commit it stands for.
  const source = isUpToDate(ctx, own) ? own! : sameTree(ctx, tree);
  if (!source) return null;
  const manifest = source.commit === commit && source.branch === ctx.head.branch ? source : fileUnderHead(ctx, source, commit);
  return summarize(manifest, { upToDate: true, newBlobs: 0, chunksEmbedded: 0, chunksTotal: null, started }, ctx.config);
}

/** A copy of a manifest of HEAD's tree, filed under HEAD's branch (or commit, when detached). */
function fileUnderHead(ctx: IndexContext, source: Manifest, commit: string): Manifest {
  const { branch } = ctx.head;
  const manifest: Manifest = { ...source, branch, commit, indexedAt: new Date().toISOString() };
  writeManifest(ctx.layout.manifests, manifestKey(branch, commit), manifest);
  return manifest;
}

/** The newest manifest of this tree made with the current settings and chunker for the store's model, if any. */
function sameTree(ctx: IndexContext, tree: string): Manifest | null {
  if (!storeExists(ctx.layout)) return null;
  const meta = readMeta(ctx.layout.meta);
  if (!meta) return null;
  const key = selectionKey(ctx.config);
  let best: Manifest | null = null;
  for (const name of listManifests(ctx.layout.manifests)) {
    const m = readManifest(ctx.layout.manifests, name);
    if (!m || m.tree !== tree || m.selectionKey !== key || m.modelId !== meta.modelId || m.chunkerVersion !== chunkerVersion()) continue;
    if (!best || m.indexedAt > best.indexedAt) best = m;
  }
  return best;
}

/** `extra.warnings`: what the run itself found worth telling (a grammar that did not load), after the selection's. */
export function summarize(manifest: Manifest, extra: { upToDate: boolean; newBlobs: number; chunksEmbedded: number; chunksTotal: number | null; started: number; warnings?: string[] }, config: IndexContext['config']): IndexSummary {
  const skipped: Partial<Record<SkipReason, number>> = {};
  for (const reason of Object.values(manifest.skipped)) skipped[reason] = (skipped[reason] ?? 0) + 1;
  const files = Object.keys(manifest.files).length;
  const empty = emptySelectionWarning(files, Object.keys(manifest.skipped).length, config);
  const warnings = [...(empty ? [empty] : []), ...(extra.warnings ?? [])];
  return {
    branch: manifest.branch,
    commit: manifest.commit,
    tree: manifest.tree,
    upToDate: extra.upToDate,
    files,
    skipped,
    newBlobs: extra.newBlobs,
    chunksEmbedded: extra.chunksEmbedded,
    chunksTotal: extra.chunksTotal,
    seconds: (performance.now() - extra.started) / 1000,
    ...(warnings.length ? { warnings } : {}),
  };
}

/** The store's record, or null where there is none or it cannot be read (the run that follows says why). */
function metaOrNull(ctx: IndexContext): StoreMeta | null {
  try {
    return readMeta(ctx.layout.meta);
  } catch {
    return null;
  }
}
