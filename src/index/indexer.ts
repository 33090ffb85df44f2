import fs from 'node:fs';
import { grammarNotices, warmGrammars } from '../chunk/index.js';
import { chunkerVersion } from '../chunk/version.js';
import type { Embedder } from '../embed/index.js';
import { BlobReader } from '../git/blobs.js';
import { listTree } from '../git/tree.js';
import { shownPath } from '../git/path-key.js';
import type { BlobState } from '../store/blob-state.js';
import type { ChunkReader } from '../store/contract.js';
import { ensureGitExclude } from '../store/layout.js';
import { knownBlobs, listManifests, manifestKey, readManifest, writeManifest } from '../store/manifest.js';
import { fullGc } from '../util/full-gc.js';
import { requireHead } from './manifest-state.js';
import type { IndexContext } from './index-context.js';
import { checkpoint, crashPoint } from './crash-point.js';
import { finishChunkerUpgrade, openStoreFor, rebuildReason } from './open-store.js';
import { rebuildBeside } from './rebuild.js';
import { removeStagingLeftovers } from '../store/index-swap.js';
import { checkRemote, openRemoteReader, readThrough, remoteContents, type ReadThroughSummary, type RemoteReader } from './read-through.js';
import { buildManifest } from './build-manifest.js';
import { recordGcCheck } from './gc-policy.js';
import type { ChunksInHand } from './chunks-in-hand.js';
import type { HandedChunks } from './handed-chunks.js';
import { embedBlobs, type BlobProgress, type BlobToIndex, type IndexPhase } from './embed-blobs.js';
import { indexKnownTree, summarize, type IndexSummary } from './known-tree.js';
import { selectFiles, type Selection } from './select.js';
import { emptySelectionWarning } from './warnings.js';
import { fetchSearchSet, placeSearchSet } from './remote-search-set.js';
import { forgetRun, remoteCheck, type RemoteCheck } from './remote-check.js';
import { dropRemoteFirst, remoteFirstFile } from './remote-first.js';
import { residentSnapshotFile } from '../search/candidates.js';
import { readMeta } from '../store/meta.js';
import { writeRemoteRun } from '../store/remote-run.js';
import { identityWith } from './identity-with.js';

export { clearIndex, openStoreFor } from './open-store.js';

export type IndexProgress = BlobProgress;
export type { IndexPhase } from './embed-blobs.js';

export interface IndexOptions {
  /** Embed everything again into a new store built beside the index, swapped in once complete (rebuild.ts). */
  rebuild?: boolean;
  /** Manifests (keys) of commits close to this one, e.g. the branch checked out before: their blobs are known stored. */
  baseKeys?: string[];
  onProgress?: (p: IndexProgress) => void;
  /** Stops the run after the progress report of a durable write, throwing the signal's reason; the manifest stays as it was. */
  signal?: AbortSignal;
  /** Tells the user about slow one-time work (model build, chunker upgrade) on stderr. */
  onNotice?: (message: string) => void;
  /** Loads the embedder only when there is something to embed. */
  loadEmbedder: () => Promise<Embedder>;
  /** Keeps the chunks the run stores, for the search set after it (search-snapshot.ts). */
  inHand?: ChunksInHand;
  /**
   * A run of a commit's few chunks leaves the store's compaction to the caller, who does it once the commit is
   * searchable (gc-policy.ts `summaryAfterGc`): folding ~24 commits' files took 0.3 s of CPU (0.8 s on a loaded
   * machine) of a one-file commit's run before its manifest. Larger runs compact before their search indexes.
   */
  deferCompaction?: boolean;
  /** What the early answer that started this run chunked and embedded (early/hand-off.ts), taken when it fits. */
  handed?: HandedChunks;
}

/** A run that stored at most this many chunks (a group's worth: a commit's, not a branch's) may defer compaction. */
const DEFERRED_COMPACTION_CHUNKS = 1024;

export type { IndexSummary } from './known-tree.js';

/**
 * A run that stored this many chunks gives its embedding memory back before the store's compaction and index
 * builds: ~10 s of embedding on 2 cores, against which a full collection (~0.1 s) and respawning the workers for
 * the next big batch (~0.1 s) are nothing. Smaller runs (a commit's) keep their workers, for the next commit.
 */
const RELEASE_AFTER_CHUNKS = 20_000;

/** Files no manifest knows, up to which a run loads their grammars ahead (a commit's; a branch's load as they come). */
const WARM_FILES = 64;

/** Beyond this many blobs unknown to the base manifests, one scan of the store beats per-blob look-ups. */
const LOOKUP_LIMIT = 5000;

/**
 * Brings the index of the checked-out commit up to date: only blobs never seen before are read and embedded.
 * Chunks are durable before the manifest that names them is switched, so a reader never sees a manifest
 * whose blobs are missing, and a killed run leaves the previous state searchable.
 */
export async function indexHead(ctx: IndexContext, opts: IndexOptions): Promise<IndexSummary> {
  const started = performance.now();
  requireHead(ctx.head);
  // A swap a killed rebuild left half done is completed, and its build folders go, before anything reads the index.
  removeStagingLeftovers(ctx.layout);
  const stale = opts.rebuild ? null : rebuildReason(ctx);
  if (stale) opts.onNotice?.(stale);
  if (opts.rebuild || stale) return rebuildBeside(ctx, (staged) => indexInto(staged, opts, started), opts.signal, opts.inHand);
  const known = indexKnownTree(ctx, started);
  if (known) return known;
  return indexInto(ctx, opts, started);
}

/** Indexes HEAD into the store `ctx.layout` names: the index itself, or a rebuild's staging folder. */
async function indexInto(ctx: IndexContext, opts: IndexOptions, started: number): Promise<IndexSummary> {
  const { commit, tree } = requireHead(ctx.head);
  const { branch } = ctx.head;
  crashPoint('index.start');
  ensureGitExclude(ctx.repo);
  fs.mkdirSync(ctx.layout.dir, { recursive: true });

  const phase = (name: IndexPhase, done = 0, total = 0) => opts.onProgress?.({ phase: name, blobsDone: done, blobsTotal: total, chunks: 0, chunksPerSecond: null });
  phase('listing');
  // The listing (git's processes) runs while the model loads and the store opens, which do not depend on it.
  const listing = listTree(ctx.repo.root, tree).then((entries) => {
    const selection = selectFiles(entries, ctx.config);
    // Said as soon as it is known, so a surface that started the run shows it before the run ends.
    const empty = emptySelectionWarning(selection.files.length, selection.skipped.length, ctx.config);
    if (empty) opts.onProgress?.({ phase: 'reading', blobsDone: 0, blobsTotal: 0, chunks: 0, chunksPerSecond: null, warnings: [empty] });
    return selection;
  });
  // Awaited below on every path; until then a failure must not count as unhandled.
  listing.catch(() => undefined);
  const embedder = await opts.loadEmbedder();
  const identity = identityWith(embedder);
  // Before the local store is opened: a foreign remote is refused with the local index untouched.
  const remote = await checkRemote(ctx, identity, opts.onNotice);
  const opening = openStoreFor(ctx, embedder, opts);
  // Awaited below too; a store that fails to open while the listing still runs must not end the process as an
  // unhandled rejection (a full disk or read-only folder has its own exit code).
  opening.catch(() => undefined);
  let selection: Selection;
  try {
    selection = await listing;
    await checkpoint('index.listed', opts.signal);
  } catch (e) {
    // A failed listing or a cancel: the store being opened is let go before the error leaves.
    await opening.then((s) => s.close(), () => undefined);
    throw e;
  }
  const manifestKeys = [manifestKey(branch, commit), ...(opts.baseKeys ?? [])];
  warmChunker(selection, knownFromManifests(ctx, embedder.modelId, manifestKeys));
  const store = await opening;
  let remoteTables: RemoteReader | null = null;
  let check: RemoteCheck | null = null;
  // git's reader starts now, so its process is up by the time the store has said which blobs it lacks.
  const reader = new BlobReader(ctx.repo.root);
  try {
    // The manifests read again: opening a store that was lost drops them with it (their blobs are no longer stored).
    // Both asked at once: LanceDB answers each on its own threads.
    const [chunksAtStart, known] = await Promise.all([store.countChunks(), knownState(store, selection, knownFromManifests(ctx, embedder.modelId, manifestKeys))]);
    const storeWasEmpty = chunksAtStart === 0;
    let pending = uniqueUnknown(selection.files, known);
    const unknownAtStart = pending.map((b) => b.blob);
    let fetched: ReadThroughSummary | undefined;
    // The remote's tables are opened only when there is something to copy (not for a merge of known blobs).
    if (remote && pending.length && (remoteTables = await openRemoteReader(remote, identity, opts.onNotice))) {
      check = await remoteCheck(ctx, embedder, remote.uri, selection.files, unknownAtStart);
      // Fetched while the chunks are copied: both are reads of the remote, and neither waits on the other.
      const searchSet = fetchSearchSet(remoteTables, commit, identity, remoteFirstFile(ctx.layout, commit, identity));
      // Into an empty store the copied rows are the store's first, in the order copied: the search set takes them in hand.
      const onCopied = storeWasEmpty ? opts.inHand?.storedBatches : undefined;
      const copied = await readThrough(remoteTables, store, identity, unknownAtStart, check, opts.onNotice, onCopied).catch((e) => forgetRun(store, unknownAtStart, e));
      for (const [blob, s] of copied.known) known.set(blob, s);
      pending = pending.filter((b) => !known.has(b.blob));
      fetched = copied.summary;
      // Copied rows come first in the store: a search set read back from it would not begin with this run's, and into
      // a store that held rows, a row copied may be one stored before (its stored vector is what a search reads).
      if (copied.copied.size && !onCopied) opts.inHand?.drop();
      const body = await searchSet;
      const generation = readMeta(ctx.layout.meta)?.createdAt;
      if (body && generation && copied.copied.size) {
        const placed = await placeSearchSet(body, residentSnapshotFile(ctx.layout, identity.modelId, generation), identity, (c) => copied.copied.has(c.id), check.rows.fork());
        fetched.searchSet = placed === true;
        if (typeof placed === 'string') opts.onNotice?.(`ocrag: the search-ready set ${remote.uri} published for ${commit.slice(0, 8)} was not used (${placed}); the first search builds its own`);
      }
    }
    phase('reading', 0, pending.length);
    const copyContents = fetched && remoteTables && check ? remoteContents(remoteTables, check, opts.onNotice) : undefined;
    const handed = opts.handed?.fits({ ...identity, maxLineChars: ctx.config.maxLineChars }) ? opts.handed : undefined;
    let result;
    try {
      result = await embedBlobs(store, embedder, pending, (b) => reader.read(b.blob), { maxLineChars: ctx.config.maxLineChars, onProgress: opts.onProgress, signal: opts.signal, copyContents, onStored: opts.inHand?.stored, handed });
      if (copyContents) await check!.finish();
      if (fetched) fetched.contents = result.copied;
    } catch (e) {
      // A remote refused midway: what this run added goes, the local index stays as it was.
      if (copyContents) return await forgetRun(store, unknownAtStart, e);
      // Thrown, not returned rejected: the close in `finally` is awaited first, and a rejection nobody holds
      // meanwhile ends the process (a full disk said "unhandled rejection" instead of exit 7).
      throw e;
    } finally {
      // git's reader goes as soon as every blob is read, not held through compaction's memory peak (below).
      await reader.close();
    }
    for (const m of result.marks) known.set(m.blob, m.reason);
    opts.inHand?.marked(result.marks);
    if (result.writes > 0 || fetched?.chunks) {
      opts.onProgress?.({ phase: 'search-index', blobsDone: pending.length, blobsTotal: pending.length, chunks: result.chunks, chunksPerSecond: null });
      if (result.chunks >= RELEASE_AFTER_CHUNKS) await releaseEmbedding(embedder);
      await checkpoint('index.compact', opts.signal);
      if (!opts.deferCompaction || result.chunks + (fetched?.chunks ?? 0) > DEFERRED_COMPACTION_CHUNKS) await store.compactIfFragmented();
      await checkpoint('index.text-index', opts.signal);
      await store.ensureSearchIndexes(selection.files.map((f) => f.blob), opts.onNotice);
    }
    finishChunkerUpgrade(ctx, embedder);
    const manifest = buildManifest(ctx, branch, commit, tree, embedder.modelId, selection, known);
    crashPoint('index.manifest');
    writeManifest(ctx.layout.manifests, manifestKey(branch, commit), manifest);
    // Searches answer from the manifest now: a first answer's set (remote-first.ts) has served its turn.
    dropRemoteFirst(ctx.layout);
    const chunksTotal = await store.countChunks();
    if (storeWasEmpty) recordGcCheck(ctx, chunksTotal);
    if (fetched) writeRemoteRun(ctx.layout.remoteRun, { at: new Date().toISOString(), commit, ...fetched });
    crashPoint('index.done');
    const warnings = grammarNotices(result.languages);
    const summary = summarize(manifest, { upToDate: false, newBlobs: pending.length, chunksEmbedded: result.embedded, chunksTotal, started, warnings }, ctx.config);
    return fetched ? { ...summary, remote: fetched } : summary;
  } finally {
    // Again for a run that ended before its blobs were read (closing twice is nothing).
    await reader.close();
    await check?.close();
    store.close();
    remoteTables?.store.close();
  }
}

/**
 * Compaction and the search indexes peak in LanceDB's native memory: the embedding workers, their shared table
 * (78 MB) and the run's garbage go first, so the two peaks do not stack: on the 50,000-file index RSS fell from
 * 740 to 649 MB just before compaction (README, Limits).
 */
async function releaseEmbedding(embedder: Embedder): Promise<void> {
  await embedder.release?.();
  fullGc();
}

/** Blob → "chunks" or skip reason for the blobs of these manifests (and of a few recent ones): stored by construction. */
function knownFromManifests(ctx: IndexContext, modelId: string, baseKeys: string[]): Map<string, BlobState> {
  const known = new Map<string, BlobState>();
  const keys = new Set(baseKeys);
  if (keys.size === 1) for (const key of listManifests(ctx.layout.manifests).slice(0, 3)) keys.add(key);
  for (const key of keys) {
    const m = readManifest(ctx.layout.manifests, key);
    if (m && m.modelId === modelId && m.chunkerVersion === chunkerVersion()) knownBlobs(m, known);
  }
  return known;
}

/**
 * A commit's few files no manifest knows: their grammars start loading (off this thread) while the store opens,
 * so chunking the first does not wait for its grammar. Beyond a commit's worth the run is long enough anyway.
 */
function warmChunker(selection: Selection, known: ReadonlyMap<string, BlobState>): void {
  const unknown = selection.files.filter((f) => !known.has(f.blob));
  if (unknown.length && unknown.length <= WARM_FILES) warmGrammars(unknown.map((f) => shownPath(f.path)));
}

/**
 * Blob → "chunks" or skip reason for every selected blob the index already has. Manifests answer for free
 * (`known`, from knownFromManifests, filled in here); the store is asked only about the rest.
 */
async function knownState(store: ChunkReader, selection: Selection, known: Map<string, BlobState>): Promise<Map<string, BlobState>> {
  const unknown = new Set(selection.files.map((f) => f.blob).filter((b) => !known.has(b)));
  if (unknown.size === 0) return known;
  const state = await store.blobState(unknown.size <= LOOKUP_LIMIT ? unknown : undefined);
  for (const [blob, s] of state) known.set(blob, s);
  return known;
}

/** One entry per blob the index lacks (a blob at many paths is read once), first path in tree order. */
function uniqueUnknown(files: BlobToIndex[], known: ReadonlyMap<string, BlobState>): BlobToIndex[] {
  const seen = new Set<string>();
  const out: BlobToIndex[] = [];
  for (const f of files) {
    if (known.has(f.blob) || seen.has(f.blob)) continue;
    seen.add(f.blob);
    out.push({ path: f.path, blob: f.blob });
  }
  return out;
}
