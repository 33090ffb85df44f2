import fs from 'node:fs';
import path from 'node:path';
import type { RecordBatch } from 'apache-arrow';
import { CHUNKER_VERSION } from '../chunk/index.js';
import { selectionKey, type IndexContext } from '../index/context.js';
import { openStoreFor } from '../index/indexer.js';
import { waitLock } from '../index/lock.js';
import type { CodeIndex } from '../service/code-index.js';
import type { ChunkStore } from '../store/chunk-store.js';
import { ensureGitExclude } from '../store/layout.js';
import { manifestKey, readManifest, writeManifest, type Manifest } from '../store/manifest.js';
import { digestOf } from './checksum.js';
import { decodeCheckedEntry } from './chunk-rows.js';
import { ArtifactError, assertCompatible, ENTRY, isChunkEntry, requireArtifactFile, type ArtifactHeader } from './format.js';
import { checkAgainstRepository, commitTree } from './manifest-check.js';
import { readTarGz } from './tar-read.js';
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

const LOCK_WAIT_MS = 10 * 60_000;
/** Memory for checked chunk entries between verifying and writing; larger artifacts are read twice instead. */
const KEEP_CHUNK_BYTES = 128 * 1024 * 1024;
/** Chunk entries are added to the store in groups of about this many rows (one commit each). */
const ROWS_PER_WRITE = 16_384;

export interface ImportOptions {
  onNotice?: (message: string) => void;
  /** Chunk entries up to this many bytes in all are kept from the verifying read and written from memory. */
  keepChunkBytes?: number;
}

/**
 * Imports an artifact. A first read verifies everything and writes nothing. Then, under the index lock, the
 * chunks the store lacks are added (from memory when they fit in `keepChunkBytes`, else from a second read
 * whose entries must hash as in the first), then the marks, and only then is the manifest registered: a
 * failure at any point leaves at most chunks no manifest references.
 */
export async function importArtifact(index: CodeIndex, file: string, opts: ImportOptions = {}): Promise<ImportSummary> {
  const { onNotice, keepChunkBytes = KEEP_CHUNK_BYTES } = opts;
  const started = performance.now();
  requireArtifactFile(file);
  const ctx = index.ctx;
  const [early, embedder] = await Promise.all([peekHeader(file), index.model()]);
  const local = { modelId: embedder.modelId, dim: embedder.dim, chunkerVersion: CHUNKER_VERSION };
  if (early) assertCompatible(early, local);
  // Git lists the commit's tree while the artifact is verified.
  const here = early ? commitTree(ctx.repo.root, early.commit) : Promise.resolve(null);
  here.catch(() => undefined);
  const verified = await verifyArtifact(file, local, keepChunkBytes);
  const commit = verified.manifest.commit;
  const repository = checkAgainstRepository(verified.manifest, early?.commit === commit ? await here : await commitTree(ctx.repo.root, commit));

  fs.mkdirSync(ctx.layout.dir, { recursive: true });
  const lock = await waitLock(ctx.layout.lock, LOCK_WAIT_MS, () => onNotice?.('ocrag: waiting for another ocrag run (a git hook?) to finish'));
  try {
    ensureGitExclude(ctx.repo);
    const store = await openStoreFor(ctx, embedder, { onNotice });
    let chunksAdded: number;
    let marksAdded: number;
    try {
      chunksAdded = verified.chunkBatches ? await addBatches(verified.chunkBatches, store) : await addChunks(file, verified, store);
      marksAdded = await addMarks(store, verified);
      // As after an index run: fold fragments only once they pile up; new rows are searchable at once.
      if (chunksAdded || marksAdded) await store.compactIfFragmented();
    } finally {
      store.close();
    }
    const { key, written } = registerManifest(ctx, verified.manifest);
    return {
      file: path.resolve(file),
      header: verified.header,
      manifestKey: key,
      manifestWritten: written,
      repository,
      chunks: verified.trailer.counts.chunks,
      chunksAdded,
      marksAdded,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    lock.release();
  }
}

/** The second read: every entry must hash as in the first (the file could have changed in between). */
async function addChunks(file: string, verified: VerifiedArtifact, store: ChunkStore): Promise<number> {
  const writer = new GroupedWriter(store);
  let i = 0;
  for await (const { name, body } of readTarGz(file)) {
    if (name === ENTRY.trailer) break;
    const expected = verified.digests[i++];
    const actual = digestOf(name, body);
    if (!expected || expected.name !== actual.name || expected.sha256 !== actual.sha256) throw changedMeanwhile();
    if (isChunkEntry(name)) await writer.push(decodeCheckedEntry(body));
  }
  if (i !== verified.digests.length) throw changedMeanwhile();
  return writer.finish();
}

async function addBatches(batches: RecordBatch[], store: ChunkStore): Promise<number> {
  const writer = new GroupedWriter(store);
  for (const batch of batches) await writer.push(batch);
  return writer.finish();
}

/** Adds batches in commits of about ROWS_PER_WRITE rows: few LanceDB versions, bounded memory. */
class GroupedWriter {
  private added = 0;
  private group: RecordBatch[] = [];
  private rows = 0;

  constructor(private readonly store: ChunkStore) {}

  async push(batch: RecordBatch): Promise<void> {
    this.group.push(batch);
    this.rows += batch.numRows;
    if (this.rows >= ROWS_PER_WRITE) await this.flush();
  }

  async finish(): Promise<number> {
    await this.flush();
    return this.added;
  }

  private async flush(): Promise<void> {
    if (this.group.length) this.added += await this.store.addChunkBatchesNotStored(this.group);
    this.group = [];
    this.rows = 0;
  }
}

function changedMeanwhile(): ArtifactError {
  return new ArtifactError('the artifact changed while it was being imported; no manifest was registered: run ocrag import again');
}

async function addMarks(store: ChunkStore, verified: VerifiedArtifact): Promise<number> {
  if (verified.marks.length === 0) return 0;
  const known = await store.blobState(verified.marks.map((m) => m.blob));
  const fresh = verified.marks.filter((m) => !known.has(m.blob));
  await store.addMarks(fresh);
  return fresh.length;
}

/**
 * Registers the manifest for the checked-out branch when HEAD is the artifact's commit (so search and index
 * find it up to date), else as that detached commit (its blobs still count as stored for later runs). A manifest
 * already there for the same tree and the local settings is kept.
 */
function registerManifest(ctx: IndexContext, manifest: Manifest): { key: string; written: boolean } {
  const branch = ctx.repo.head === manifest.commit ? ctx.repo.branch : null;
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
