import type { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { chunkerVersion } from '../chunk/version.js';
import { resolveRevision } from '../git/repo.js';
import { currentManifest, isUpToDate, requireHead } from '../index/manifest-state.js';
import type { IndexContext } from '../index/index-context.js';
import { parseMarkReason, type MarkReason } from '../store/blob-state.js';
import type { BlobMark, ChunkReader } from '../store/contract.js';
import { listManifests, readManifest, type Manifest } from '../store/manifest.js';
import { readMeta } from '../store/meta.js';
import { openStore, storeExists } from '../store/open-store.js';
import { OcragError, REBUILD } from '../util/errors.js';
import { withIndexLock } from '../util/file-lock.js';
import { VERSION } from '../util/version.js';
import { digestOf, totalDigest } from './checksum.js';
import { encodeChunkBatch } from './chunk-rows.js';
import { ARTIFACT_FORMAT, chunkEntryNames, ENTRY, FORMAT_VERSION, type ArtifactHeader, type ArtifactTrailer, type EntryDigest } from './format.js';
import { writeTar, type ArtifactEntry } from './tar-write.js';
import { checkArtifactFile, STDOUT_NAME, type ArtifactTarget } from './artifact-target.js';

/** The index to export from: its context, and how to bring HEAD's index up to date when it is behind. */
export interface ExportSource {
  ctx: IndexContext;
  indexHead: () => Promise<unknown>;
}

export interface ExportOptions {
  /** Revision to export (default HEAD). */
  rev?: string;
  /** Artifact path (default ocrag-index-<commit>.tar in the current folder), or `-` for `stdout`. */
  out?: string;
  /** Where `--out -` streams (the CLI's stdout). */
  stdout?: Writable;
  onNotice?: (message: string) => void;
}

export interface ExportSummary {
  /** The artifact's absolute path, or `-` when it went to stdout. */
  file: string;
  bytes: number;
  commit: string;
  tree: string;
  branch: string | null;
  counts: ArtifactTrailer['counts'];
  sha256: string;
  seconds: number;
}

/** Members are compressed once, in CI, and unpacked on every import: a smaller artifact also unpacks faster. */
const GZIP_LEVEL = 6;
const gzipped = promisify(gzip);

/** An entry as stored, with the size of what it unpacks to. */
interface ExportEntry extends ArtifactEntry {
  unpacked: number;
}

/**
 * Writes the index of one commit (its manifest, marks and every chunk of its blobs, vectors included) to one
 * artifact, streaming chunk rows from the store batch by batch. HEAD is indexed first when it is behind.
 */
export async function exportIndex(source: ExportSource, opts: ExportOptions = {}): Promise<ExportSummary> {
  const started = performance.now();
  const ctx = source.ctx;
  // Refused before HEAD is indexed: a target that cannot be written costs nothing.
  const target = artifactTarget(opts);
  const manifest = await manifestToExport(source, opts.rev);
  const meta = readMeta(ctx.layout.meta);
  if (!meta || !storeExists(ctx.layout)) throw new OcragError('the index is missing its store: run "ocrag index --rebuild"', 'index', REBUILD);
  const chunker = chunkerVersion();
  if (manifest.modelId !== meta.modelId || manifest.chunkerVersion !== chunker || meta.chunkerVersion !== chunker) {
    throw new OcragError(`commit ${manifest.commit.slice(0, 8)} was indexed with another model or chunker than the store's: check it out and run "ocrag index"`, 'index');
  }
  const to = target ?? { file: checkArtifactFile(`ocrag-index-${manifest.commit.slice(0, 12)}.tar`) };
  const file = 'file' in to ? to.file : STDOUT_NAME;
  const createdAt = new Date();
  const header: ArtifactHeader = {
    format: ARTIFACT_FORMAT,
    formatVersion: FORMAT_VERSION,
    ocragVersion: VERSION,
    modelId: meta.modelId,
    dim: meta.dim,
    chunkerVersion: chunker,
    commit: manifest.commit,
    tree: manifest.tree,
    branch: manifest.branch,
    createdAt: createdAt.toISOString(),
  };
  // Chunks are read while no other run compacts the store under us (compaction deletes old files).
  return withIndexLock(ctx.layout.lock, opts.onNotice, async () => {
    const store = await openStore(ctx.layout, meta.dim);
    try {
      const { chunkBlobs, marks } = await partitionBlobs(store, manifest);
      const trailer = emptyTrailer(manifest, chunkBlobs.length, marks.length);
      const bytes = await writeTar(to, withTrailer(artifactEntries(store, header, manifest, chunkBlobs, marks, trailer), trailer), createdAt);
      return { file, bytes, commit: manifest.commit, tree: manifest.tree, branch: manifest.branch, counts: trailer.counts, sha256: trailer.sha256, seconds: (performance.now() - started) / 1000 };
    } finally {
      store.close();
    }
  });
}

/** Where `--out` says to write, checked; null for the default name, known once the commit is. */
function artifactTarget(opts: ExportOptions): ArtifactTarget | null {
  if (opts.out === undefined) return null;
  if (opts.out !== STDOUT_NAME) return { file: checkArtifactFile(opts.out) };
  if (!opts.stdout) throw new OcragError('--out - streams the artifact to stdout, which only the CLI has');
  return { stream: opts.stdout };
}

/** The manifest of the revision; HEAD is brought up to date first, any other commit must have been indexed. */
async function manifestToExport(source: ExportSource, rev: string | undefined): Promise<Manifest> {
  const ctx = source.ctx;
  const head = requireHead(ctx.head);
  const target = rev ? await resolveRevision(ctx.repo.root, rev) : head;
  if (target.commit === head.commit) {
    if (!isUpToDate(ctx, currentManifest(ctx))) await source.indexHead();
    const manifest = currentManifest(ctx);
    if (manifest) return manifest;
  }
  const manifest = newestManifestOf(ctx, target.commit);
  if (!manifest) throw new OcragError(`${rev ?? 'HEAD'} (${target.commit.slice(0, 8)}) was never indexed: check it out and run "ocrag index", then export`, 'index');
  return manifest;
}

function newestManifestOf(ctx: IndexContext, commit: string): Manifest | null {
  let best: Manifest | null = null;
  for (const key of listManifests(ctx.layout.manifests)) {
    const m = readManifest(ctx.layout.manifests, key);
    if (m?.commit === commit && (!best || m.indexedAt > best.indexedAt)) best = m;
  }
  return best;
}

/** Splits the manifest's blobs into those with chunks and those with a mark; a blob with neither means a damaged index. */
export async function partitionBlobs(store: ChunkReader, manifest: Manifest): Promise<{ chunkBlobs: string[]; marks: BlobMark[] }> {
  const fileBlobs = [...new Set(Object.values(manifest.files))];
  const state = await store.blobState([...fileBlobs, ...Object.values(manifest.skippedBlobs)]);
  const chunkBlobs: string[] = [];
  const marks = new Map<string, MarkReason>();
  for (const blob of fileBlobs) {
    const s = state.get(blob);
    if (!s) throw new OcragError(`the index lacks blob ${blob} of commit ${manifest.commit.slice(0, 8)}: run "ocrag index --rebuild"`, 'index', REBUILD);
    if (s === 'chunks') chunkBlobs.push(blob);
    else marks.set(blob, s);
  }
  for (const [p, blob] of Object.entries(manifest.skippedBlobs)) {
    const s = state.get(blob);
    if (!marks.has(blob)) marks.set(blob, s && s !== 'chunks' ? s : parseMarkReason(manifest.skipped[p] ?? 'binary'));
  }
  return { chunkBlobs, marks: [...marks].map(([blob, reason]) => ({ blob, reason })) };
}

async function* artifactEntries(store: ChunkReader, header: ArtifactHeader, manifest: Manifest, chunkBlobs: string[], marks: BlobMark[], trailer: ArtifactTrailer): AsyncGenerator<ExportEntry> {
  yield stored(ENTRY.header, Buffer.from(JSON.stringify(header)));
  yield await packed(ENTRY.manifest, Buffer.from(JSON.stringify(manifest)));
  yield await packed(ENTRY.marks, Buffer.from(marks.map((m) => JSON.stringify(m) + '\n').join('')));
  let n = 0;
  for await (const batch of store.chunkBatchesOf(chunkBlobs)) {
    for (const entry of encodeChunkBatch(batch, header.dim)) {
      const names = chunkEntryNames(++n);
      yield await packed(names.columns, entry.columns);
      yield stored(names.vectors, entry.vectors);
    }
    trailer.counts.chunks += batch.numRows;
  }
}

/** Digests every entry as it passes, then appends the trailer listing them (filled in place for the summary). */
async function* withTrailer(entries: AsyncIterable<ExportEntry>, trailer: ArtifactTrailer): AsyncGenerator<ArtifactEntry> {
  const digests: EntryDigest[] = trailer.entries;
  for await (const entry of entries) {
    digests.push(digestOf(entry.name, entry.body));
    trailer.counts.bytes += entry.unpacked;
    yield entry;
  }
  trailer.counts.entries = digests.length;
  trailer.sha256 = totalDigest(digests);
  yield stored(ENTRY.trailer, Buffer.from(JSON.stringify(trailer)));
}

function stored(name: string, body: Buffer): ExportEntry {
  return { name, body, unpacked: body.length };
}

async function packed(name: string, body: Buffer): Promise<ExportEntry> {
  return { name, body: await gzipped(body, { level: GZIP_LEVEL }), unpacked: body.length };
}

function emptyTrailer(manifest: Manifest, blobs: number, marks: number): ArtifactTrailer {
  return { counts: { files: Object.keys(manifest.files).length, blobs, chunks: 0, marks, entries: 0, bytes: 0 }, entries: [], sha256: '' };
}
