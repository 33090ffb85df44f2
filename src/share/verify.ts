import type { BlobMark, ChunkBatch } from '../store/contract.js';
import type { IndexIdentity } from '../store/identity.js';
import type { Manifest } from '../store/manifest.js';
import { ArtifactError } from '../util/errors.js';
import { digestOf, totalDigest } from './checksum.js';
import { decodeChunkEntry, type RowExpectations } from './chunk-rows.js';
import { shown } from '../util/shown.js';
import { assertCompatible, chunkMember, ENTRY, LIMITS, parseHeader, parseTrailer, type ArtifactHeader, type ArtifactTrailer, type EntryDigest } from './format.js';
import { manifestBlobs, parseArtifactManifest, parseMarks } from './manifest-check.js';
import { readArtifact } from './tar-read.js';
import type { RowVerifier } from '../index/verify/row-verifier.js';
import { describeProblem } from '../index/verify/row-problem.js';

export interface VerifyOptions {
  /** Chunk entries up to this many bytes in all are kept in `chunkBatches`. */
  keepChunkBytes?: number;
  onChunks?: (batch: ChunkBatch) => Promise<void>;
  /**
   * Holds every row and mark to the local repository (index/verify/), made once the manifest is read: a row that
   * is not what git holds refuses the artifact, after its checksums matched, before `onChunks` sees its batch.
   */
  rows?: (manifest: Manifest) => Promise<RowVerifier>;
  /**
   * Every entry was read and found whole, its rows checked but for the sample's cut and embeddings (`rows.finish`):
   * a caller writing the rows as they come writes its last ones meanwhile (an import's last write, tokio: ~0.1 s).
   */
  onRead?: () => void;
}

/** An artifact read end to end and found whole, consistent and (if asked) compatible; nothing was written. */
export interface VerifiedArtifact {
  header: ArtifactHeader;
  trailer: ArtifactTrailer;
  manifest: Manifest;
  marks: BlobMark[];
  /** Digests of the entries as read, in order: a second read must see exactly these. */
  digests: EntryDigest[];
  expectations: RowExpectations;
  /** The checked chunk batches, when they fit in `keepChunkBytes`; null when they must be read again. */
  chunkBatches: ChunkBatch[] | null;
}

/**
 * The header alone (the first entry), to refuse the wrong model or start work on the commit before the full
 * read; null when it does not parse, leaving the full verification to say what is wrong.
 */
export async function peekHeader(file: string): Promise<ArtifactHeader | null> {
  for await (const { name, stored } of readArtifact(file)) {
    if (name !== ENTRY.header) return null;
    try {
      return parseHeader(stored);
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Reads the whole artifact once, in memory-bounded steps, and checks everything an import relies on: entry
 * names, order and sizes (while streaming), header identity against `local` (at once, before reading on),
 * manifest, marks, every chunk row and vector, per-entry and overall sha256 against the trailer, the counts, and
 * that every indexed blob of the manifest has chunks or a mark. A content problem is reported only once the checksums
 * match, so a damaged file is called damaged rather than blamed on whatever the damage looks like.
 * `onChunks` receives each chunk entry's rows once checked, in order, until a content problem is found; they are
 * trustworthy only if the whole verification then succeeds.
 */
export async function verifyArtifact(file: string, local?: IndexIdentity, opts: VerifyOptions = {}): Promise<VerifiedArtifact> {
  const digests: EntryDigest[] = [];
  const names = new Set<string>();
  const contents = new ArtifactContents(opts.keepChunkBytes ?? 0, local);
  let trailer: ArtifactTrailer | undefined;
  let contentError: ArtifactError | undefined;
  let rows: RowVerifier | undefined;
  try {
    for await (const member of readArtifact(file)) {
      const name = member.name;
      if (trailer) throw new ArtifactError(`artifact has an entry (${name}) after its trailer`);
      if (names.has(name)) throw new ArtifactError(`artifact holds ${name} twice`);
      if (names.size === 0 && name !== ENTRY.header) throw new ArtifactError(`artifact must start with ${ENTRY.header}, found ${name}`);
      names.add(name);
      if (name === ENTRY.trailer) {
        trailer = parseTrailer(member.stored);
        continue;
      }
      digests.push(digestOf(name, member.stored));
      if (contentError) continue;
      let checked: ChunkBatch | null;
      try {
        checked = contents.add(name, await member.content);
      } catch (e) {
        if (!(e instanceof ArtifactError)) throw e;
        contentError = e;
        continue;
      }
      if (name === ENTRY.header && local) assertCompatible(contents.header!, local);
      if (name === ENTRY.manifest && opts.rows) rows = await opts.rows(contents.manifest!);
      const held = !rows || (name === ENTRY.marks ? await rows.checkMarks(contents.marks) : checked ? await rows.checkBatch(checked) : true);
      if (!held) contentError = refused(rows!);
      else if (checked && opts.onChunks) await opts.onChunks(checked);
    }

    if (!trailer) throw new ArtifactError('artifact is truncated: its trailer (checksums) is missing');
    checkDigests(digests, trailer);
    if (contentError) throw contentError;
    const { header, manifest, expectations, marks } = contents;
    if (!header || !manifest || !expectations) throw new ArtifactError('artifact has no manifest');
    contents.checkComplete();
    const counts = trailer.counts;
    const matches =
      counts.chunks === contents.chunks &&
      counts.marks === marks.length &&
      counts.entries === digests.length &&
      counts.files === Object.keys(manifest.files).length &&
      counts.blobs === contents.chunkBlobs.size &&
      counts.bytes === contents.bytes;
    if (!matches) throw new ArtifactError('artifact counts in the trailer do not match its contents');
    for (const blob of expectations.blobs) {
      if (!contents.covered.has(blob)) throw new ArtifactError(`artifact is incomplete: blob ${blob} of its manifest has neither chunks nor a mark`);
    }
    opts.onRead?.();
    // The sample's embeddings, last: everything cheaper has been checked.
    if (rows && !(await rows.finish())) throw refused(rows);
    return { header, trailer, manifest, marks, digests, expectations, chunkBatches: contents.kept };
  } finally {
    await rows?.close();
  }
}

/** The parsed, validated entries so far; chunk rows are counted and dropped unless kept for a one-read import. */
class ArtifactContents {
  header?: ArtifactHeader;
  manifest?: Manifest;
  expectations?: RowExpectations;
  marks: BlobMark[] = [];
  chunks = 0;
  /** What the entries unpack to, in all. */
  bytes = 0;
  /** Blobs with chunks in the artifact. */
  chunkBlobs = new Set<string>();
  /** Blobs with chunks or a mark in the artifact. */
  covered = new Set<string>();
  /** Checked batches while they fit in the budget: small artifacts are then read once. */
  kept: ChunkBatch[] | null = [];
  private keptBytes = 0;
  /** A chunk entry's columns, waiting for its vectors (the next entry). */
  private columns: { name: string; n: number; body: Buffer } | null = null;

  constructor(private readonly keepBytes: number, private readonly local?: IndexIdentity) {}

  /** Parses and checks one entry's contents; returns the rows of a chunk entry once both its halves are in. */
  add(name: string, body: Buffer): ChunkBatch | null {
    this.bytes += body.length;
    if (this.bytes > LIMITS.totalBytes) throw new ArtifactError(`artifact unpacks to more than ${LIMITS.totalBytes} bytes`);
    const chunkPart = chunkMember(name);
    if (this.columns && chunkPart?.part !== 'vectors') throw new ArtifactError(`artifact entry ${this.columns.name} is not followed by its vectors`);
    if (name === ENTRY.header) {
      this.header = parseHeader(body);
      return null;
    }
    const header = this.header!;
    if (name === ENTRY.manifest) {
      this.manifest = parseArtifactManifest(body, header);
      this.expectations = { modelId: header.modelId, dim: header.dim, chunkerVersion: header.chunkerVersion, localChunkerVersion: this.local?.chunkerVersion, blobs: new Set(Object.values(this.manifest.files)) };
      return null;
    }
    if (!this.manifest || !this.expectations) throw new ArtifactError(`artifact entry ${name} comes before the manifest`);
    if (name === ENTRY.marks) {
      this.marks = parseMarks(body, manifestBlobs(this.manifest));
      for (const m of this.marks) this.covered.add(m.blob);
      return null;
    }
    if (chunkPart?.part === 'columns') {
      this.columns = { name, n: chunkPart.n, body };
      return null;
    }
    if (chunkPart?.part === 'vectors') return this.addChunks(name, chunkPart.n, body);
    return null;
  }

  /** Refuses an artifact that ends between a chunk entry's columns and its vectors. */
  checkComplete(): void {
    if (this.columns) throw new ArtifactError(`artifact entry ${this.columns.name} is not followed by its vectors`);
  }

  private addChunks(name: string, n: number, vectors: Buffer): ChunkBatch {
    const columns = this.columns;
    if (!columns || columns.n !== n) throw new ArtifactError(`artifact entry ${name} does not follow the columns of its rows`);
    this.columns = null;
    const checked = decodeChunkEntry({ columns: columns.name, vectors: name }, { columns: columns.body, vectors }, this.expectations!);
    this.chunks += checked.batch.numRows;
    for (const blob of checked.blobs) {
      this.chunkBlobs.add(blob);
      this.covered.add(blob);
    }
    this.keptBytes += columns.body.length + vectors.length;
    if (this.keptBytes > this.keepBytes) this.kept = null;
    this.kept?.push(checked.batch);
    return checked.batch;
  }
}

/** The first row or mark that is not what the repository holds, as one line. */
function refused(rows: RowVerifier): ArtifactError {
  return new ArtifactError(`artifact refused: ${describeProblem(rows.problems[0])}; nothing was imported`);
}

function checkDigests(actual: EntryDigest[], trailer: ArtifactTrailer): void {
  const listed = trailer.entries;
  for (let i = 0; i < Math.max(actual.length, listed.length); i++) {
    const a = actual[i];
    const l = listed[i];
    if (!a || !l || a.name !== l.name) throw new ArtifactError(`artifact entries do not match its trailer's list at ${shown(a?.name ?? l?.name ?? '')} (entries missing, added or reordered)`);
    if (a.bytes !== l.bytes || a.sha256 !== l.sha256) throw new ArtifactError(`checksum mismatch for ${a.name}: the artifact is corrupt or was altered`);
  }
  if (totalDigest(listed) !== trailer.sha256) throw new ArtifactError('overall checksum mismatch: the artifact trailer was altered');
}
