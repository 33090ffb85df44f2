import path from 'node:path';
import { selectionKey } from '../index/manifest-state.js';
import type { IndexContext } from '../index/index-context.js';
import { staleMarkReasons } from '../index/chunker-upgrade.js';
import { asideModelFor, type AsideModel } from '../index/aside-model.js';
import { crashPoint } from '../index/crash-point.js';
import { dropStaleStore, openStoreFor, rebuildReason, writeStoreMeta } from '../index/open-store.js';
import { buildStoreWhole, type ChunksInHand } from '../index/rebuild.js';
import { assertSameModel, readMeta } from '../store/meta.js';
import { readFields } from '../store/chunk-batch.js';
import { decodeCheckedBytes } from '../store/chunk-bytes.js';
import type { ChunkBatch, ChunkReader, ContentStore } from '../store/contract.js';
import type { Embedder } from '../embed/index.js';
import { IMPORT_SAMPLE, pathsByBlob, rowSaysOfBatch, verifierFor, type RowVerifier } from '../index/verify/index.js';
import type { IndexIdentity } from '../store/identity.js';
import { manifestKey, readManifest, writeManifest, type Manifest } from '../store/manifest.js';
import { openStore, storeExists } from '../store/open-store.js';
import { StagedStore } from '../store/staging.js';
import { ArtifactError } from '../util/errors.js';
import { digestOf } from './checksum.js';
import { withImportLock } from './import-lock.js';
import { ChunkWriter } from './chunk-writer.js';
import { assertCompatible, chunkMember, ENTRY, requireArtifactFile, type ArtifactHeader } from './format.js';
import { describeConfigured, localIdentity } from './local-identity.js';
import { checkAgainstRepository, checkSelection, commitTree, type CommitTree } from './manifest-check.js';
import { readArtifact } from './tar-read.js';
import { peekHeader, verifyArtifact, type VerifiedArtifact } from './verify.js';

export interface ImportSummary {
  file: string;
  header: ArtifactHeader;
  /** Manifest key the index was registered under (the checked-out branch when HEAD is the artifact's commit). */
  manifestKey: string;
  /** False when an equivalent manifest was there already (importing twice changes nothing). */
  manifestWritten: boolean;
  /** Whether the manifest could be checked against the commit in this repository. */
  repository: 'checked' | 'commit not present';
  chunks: number;
  chunksAdded: number;
  marksAdded: number;
  seconds: number;
}

/** Memory for checked chunk entries between verifying and writing; larger artifacts are read twice instead. */
const KEEP_CHUNK_BYTES = 128 * 1024 * 1024;
/** Chunk entries are added in groups of at most about this many rows (one commit each). */
const ROWS_PER_WRITE = 16_384;

/** Where an artifact goes: a CodeIndex, or a lighter holder of the same context and model. */
export interface ImportTarget {
  ctx: IndexContext;
  /** Loaded only when needed: a pipeline model's vector size, and the sample of rows embedded again. */
  model(): Promise<Embedder>;
}

export interface ImportOptions {
  onNotice?: (message: string) => void;
  /** Chunk entries up to this many bytes in all are kept from the verifying read and written from memory. */
  keepChunkBytes?: number;
}

/** What both ways of importing share: the artifact, the local identity, and git's view of its commit. */
interface ImportRun {
  file: string;
  local: IndexIdentity;
  early: ArtifactHeader | null;
  here: Promise<CommitTree | null>;
  opts: ImportOptions;
  /** Holds the artifact's rows to this repository's blobs, or those stored already to what they say (`stored`, by id). */
  rows: (manifest: Manifest, stored?: Map<string, string>) => RowVerifier;
}

type Outcome = Omit<ImportSummary, 'file' | 'seconds'>;

/**
 * Imports an artifact. Into a repository without a store, the store is built in a staging folder while the
 * artifact is verified, and moved into place only once everything checked out. Into an existing store, under the
 * index lock, a first read verifies everything (rows stored already are never written, so not held to git) and
 * writes nothing; then the chunks the store lacks are added (from memory when they fit in `keepChunkBytes`, else
 * from a second read whose entries must hash as in the first), then the marks. The manifest is registered last: a
 * failure at any point leaves the index as it was, save perhaps chunks no manifest references.
 */
export async function importArtifact(target: ImportTarget, file: string, opts: ImportOptions = {}): Promise<ImportSummary> {
  const started = performance.now();
  requireArtifactFile(file);
  const ctx = target.ctx;
  const described = describeConfigured(ctx);
  const [early, local, aside] = await Promise.all([peekHeader(file), localIdentity(ctx, () => target.model(), described), asideModelFor(ctx.config.model, undefined, described)]);
  if (early) assertCompatible(early, local);
  // Git lists the commit's tree while the artifact is verified.
  const here = early ? commitTree(ctx.repo.root, early.commit) : Promise.resolve(null);
  here.catch(() => undefined);
  const run: ImportRun = { file, local, early, here, opts, rows: (manifest, stored) => artifactRows(target, local, manifest, stored, aside) };
  const outcome = (await importIntoNewStore(ctx, run)) ?? (await importIntoStore(ctx, run));
  return { file: path.resolve(file), ...outcome, seconds: (performance.now() - started) / 1000 };
}

/**
 * Into no store, or one that must be made again whole (another base chunker, the superseded default model): a new
 * store, the stale one swapped out only once the artifact is in (index/rebuild.ts), so a refused artifact leaves it
 * answering. Null when there is a store to merge into (also one that appeared before the lock was ours).
 */
async function importIntoNewStore(ctx: IndexContext, run: ImportRun): Promise<Outcome | null> {
  if (storeExists(ctx.layout) && !rebuildReason(ctx)) return null;
  return withImportLock(ctx, run.opts.onNotice, async () => {
    const meta = readMeta(ctx.layout.meta);
    if (meta) assertSameModel(meta, run.local);
    const reason = rebuildReason(ctx);
    if (reason && storeExists(ctx.layout)) {
      run.opts.onNotice?.(reason);
      return buildStoreWhole(ctx, 'beside', (staged, inHand) => importStaged(staged, run, inHand));
    }
    await dropStaleStore(ctx, run.local, run.opts);
    return storeExists(ctx.layout) ? null : buildStoreWhole(ctx, 'in place', (here, inHand) => importStaged(here, run, inHand));
  });
}

/** Builds the store in a staging folder while the artifact is verified (its rows also `inHand`), and moves it into `ctx`'s place. */
async function importStaged(ctx: IndexContext, run: ImportRun, inHand: ChunksInHand): Promise<Outcome> {
  const staged = await StagedStore.create(ctx.layout, run.local.dim);
  const writer = new ChunkWriter(staged.store, { maxRowsPerWrite: ROWS_PER_WRITE, newStore: true });
  let verified: VerifiedArtifact, repository: ImportSummary['repository'], chunksAdded: number, marksAdded: number;
  try {
    verified = await verifyArtifact(run.file, run.local, {
      rows: async (manifest) => run.rows(manifest),
      onChunks: (batch) => {
        crashPoint('import.staging');
        inHand.storedBatches([batch]);
        return writer.push(batch);
      },
      onRead: () => void writer.finish().catch(() => undefined), // the last rows, staged as all before: placed only once all is checked
    });
    repository = await checkRepository(ctx, run, verified);
    chunksAdded = await writer.finish();
    marksAdded = await addMarks(staged.store, verified);
    inHand.marked(verified.marks);
    await staged.store.ensureSearchIndexes(Object.values(verified.manifest.files), run.opts.onNotice);
  } catch (e) {
    await writer.settle();
    staged.discard();
    throw e;
  }
  crashPoint('import.staged');
  writeStoreMeta(ctx, run.local);
  staged.place(ctx.layout);
  crashPoint('import.placed');
  return { ...summaryOf(verified, registerManifest(ctx, verified.manifest)), repository, chunksAdded, marksAdded };
}

async function importIntoStore(ctx: IndexContext, run: ImportRun): Promise<Outcome> {
  return withImportLock(ctx, run.opts.onNotice, async () => {
    // Under the lock nothing deletes chunks, and a row stored already is never written again: it need only say what
    // the stored one says, so importing an artifact twice checks no blob (tokio: 2.9 s, 11.6 s checking them all).
    let stored = new Map<string, string>();
    const rows = async (manifest: Manifest) => run.rows(manifest, (stored = await storedRows(ctx, run.local.dim, manifest)));
    const verified = await verifyArtifact(run.file, run.local, { keepChunkBytes: run.opts.keepChunkBytes ?? KEEP_CHUNK_BYTES, rows });
    const repository = await checkRepository(ctx, run, verified);
    const store = await openStoreFor(ctx, run.local, run.opts);
    crashPoint('import.merging');
    let chunksAdded: number;
    let marksAdded: number;
    try {
      const writer = new ChunkWriter(store, { maxRowsPerWrite: ROWS_PER_WRITE });
      try {
        // A batch whose every row is stored already adds nothing: importing again writes nothing, asks the store nothing.
        if (verified.chunkBatches) {
          for (const batch of verified.chunkBatches) if (!allStored(batch, stored)) await writer.push(batch);
        } else await pushSecondRead(run.file, verified, (batch) => (allStored(batch, stored) ? Promise.resolve() : writer.push(batch)));
        chunksAdded = await writer.finish();
      } finally {
        await writer.settle();
      }
      marksAdded = await addMarks(store, verified);
      // As after an index run: fold fragments only once they pile up; new rows are searchable at once.
      if (chunksAdded || marksAdded) await store.compactIfFragmented();
      await store.ensureSearchIndexes(Object.values(verified.manifest.files), run.opts.onNotice);
    } finally {
      store.close();
    }
    return { ...summaryOf(verified, registerManifest(ctx, verified.manifest)), repository, chunksAdded, marksAdded };
  });
}

/**
 * Every row and mark of the artifact held to this repository's blobs (index/verify/): texts, languages, words and
 * vector lengths of all, a keyed sample cut and embedded again. The paths are the manifest's, which must be the
 * commit's own when the commit is here (checkAgainstRepository).
 */
function artifactRows(target: ImportTarget, local: IndexIdentity, manifest: Manifest, stored?: Map<string, string>, model?: AsideModel): RowVerifier {
  const files = [...Object.entries(manifest.files), ...Object.entries(manifest.skippedBlobs)];
  return verifierFor(target.ctx, { dim: local.dim, paths: pathsByBlob(files), blobs: files.map(([, blob]) => blob), plan: IMPORT_SAMPLE, embedder: () => target.model(), stored, aside: { model } });
}

/**
 * The rows the local store holds of the manifest's blobs, by id, as what they say (`rowSays`). Read only: a refused
 * artifact must change nothing. A store that cannot be read gives none: every row is checked, the write says why.
 */
async function storedRows(ctx: IndexContext, dim: number, manifest: Manifest): Promise<Map<string, string>> {
  const rows = new Map<string, string>();
  try {
    const store = await openStore(ctx.layout, dim, { create: false });
    try {
      // A blob without chunks here gives no rows: no need to ask which have them first.
      for await (const batch of store.chunkColumns([...new Set(Object.values(manifest.files))], ['id', 'contentKey', 'terms'])) {
        const { id } = readFields(batch, ['id']);
        const says = rowSaysOfBatch(batch);
        for (let i = 0; i < batch.numRows; i++) rows.set(id(i), says(i));
      }
    } finally {
      store.close();
    }
  } catch {
    rows.clear();
  }
  return rows;
}

async function checkRepository(ctx: IndexContext, run: ImportRun, verified: VerifiedArtifact): Promise<ImportSummary['repository']> {
  const commit = verified.manifest.commit;
  const here = run.early?.commit === commit ? await run.here : await commitTree(ctx.repo.root, commit);
  const checked = checkAgainstRepository(verified.manifest, here);
  // A manifest made with other settings is made again by the next index run; one made with these is used as it is.
  if (here && verified.manifest.selectionKey === selectionKey(ctx.config)) checkSelection(verified.manifest, here, ctx.config);
  return checked;
}

function summaryOf(verified: VerifiedArtifact, manifest: { key: string; written: boolean }): Omit<Outcome, 'repository' | 'chunksAdded' | 'marksAdded'> {
  return { header: verified.header, manifestKey: manifest.key, manifestWritten: manifest.written, chunks: verified.trailer.counts.chunks };
}

/** Whether every row of the batch is one the store held when the artifact was verified (under the lock, so it still does). */
function allStored(batch: ChunkBatch, stored: ReadonlyMap<string, string>): boolean {
  if (stored.size < batch.numRows) return false;
  const { id } = readFields(batch, ['id']);
  for (let i = 0; i < batch.numRows; i++) if (!stored.has(id(i))) return false;
  return true;
}

/** The second read: every entry must hash as in the first (the file could have changed in between). */
async function pushSecondRead(file: string, verified: VerifiedArtifact, push: (batch: ChunkBatch) => Promise<void>): Promise<void> {
  let i = 0;
  let columns: Buffer | null = null;
  for await (const member of readArtifact(file)) {
    const name = member.name;
    if (name === ENTRY.trailer) break;
    const expected = verified.digests[i++];
    const actual = digestOf(name, member.stored);
    if (!expected || expected.name !== actual.name || expected.sha256 !== actual.sha256) throw changedMeanwhile();
    // Entries come in the order the first read checked: a chunk entry's columns, then its vectors.
    const part = chunkMember(name)?.part;
    if (part === 'columns') columns = await member.content;
    else if (part === 'vectors') await push(decodeCheckedBytes({ columns: columns!, vectors: member.stored }, verified.header.dim));
  }
  if (i !== verified.digests.length) throw changedMeanwhile();
}

function changedMeanwhile(): ArtifactError {
  return new ArtifactError('the artifact changed while it was being imported; no manifest was registered: run ocrag import again');
}

async function addMarks(store: ChunkReader & ContentStore, verified: VerifiedArtifact): Promise<number> {
  if (verified.marks.length === 0) return 0;
  const known = await store.blobState(verified.marks.map((m) => m.blob));
  // A reader's verdict of another revision (a code file an older ocrag took for a PDF) is not taken: the blob is read here.
  const stale = staleMarkReasons(verified.header.chunkerVersion);
  const fresh = verified.marks.filter((m) => !known.has(m.blob) && !stale.has(m.reason));
  await store.addMarks(fresh);
  return fresh.length;
}

/**
 * Registers the manifest for the checked-out branch when HEAD is the artifact's commit (so search and index
 * find it up to date), else as that detached commit (its blobs still count as stored for later runs). A manifest
 * already there for the same tree and the local settings is kept.
 */
function registerManifest(ctx: IndexContext, manifest: Manifest): { key: string; written: boolean } {
  const branch = ctx.head.commit === manifest.commit ? ctx.head.branch : null;
  const key = manifestKey(branch, manifest.commit);
  const existing = readManifest(ctx.layout.manifests, key);
  const current =
    existing &&
    existing.tree === manifest.tree &&
    existing.modelId === manifest.modelId &&
    existing.chunkerVersion === manifest.chunkerVersion &&
    existing.selectionKey === selectionKey(ctx.config);
  if (current) return { key, written: false };
  writeManifest(ctx.layout.manifests, key, { ...manifest, branch, indexedAt: new Date().toISOString() });
  return { key, written: true };
}
