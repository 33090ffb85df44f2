import { chunkerVersionsByLanguage } from '../chunk/version.js';
import type { BlobState } from '../store/blob-state.js';
import { lacksFields, readFields } from '../store/chunk-batch.js';
import { CHUNK_FIELDS } from '../store/chunk-columns.js';
import type { ChunkBatch, ChunkStore, ContentStore } from '../store/contract.js';
import type { IndexIdentity } from '../store/identity.js';
import { openStore } from '../store/open-store.js';
import { assertRemoteIdentity, openRemote, readRemoteIdentity, type RemoteStore } from '../store/remote.js';
import { ArtifactError, RemoteUnavailableError, StoreDamageError } from '../util/errors.js';
import { chunkId } from './chunk-id.js';
import type { IndexContext } from './index-context.js';
import type { CopyContents } from './embed-blobs.js';
import type { RemoteCheck } from './remote-check.js';

/** The team's remote store as an index run reads it: the tables, and where they are (for messages and counts). */
export interface RemoteReader {
  remote: RemoteStore;
  store: ChunkStore;
}

/** What a run copied from the remote instead of embedding. */
export interface ReadThroughSummary {
  remote: string;
  blobs: number;
  chunks: number;
  marks: number;
  /** Contents of new blobs found in the remote and copied instead of embedded (chunks of unchanged functions). */
  contents: number;
  /** Whether the commit's search-ready set was fetched and placed, so the first search restores it. */
  searchSet: boolean;
}

/** Rows copied per local commit: a few commits, so writing them overlaps reading the rest. */
const ROWS_PER_COPY = 4096;

/**
 * The configured remote store, its identity checked, or null: none configured, nothing published there yet, or
 * unreachable (then one line says so and the run indexes locally). A remote of another model, vector size or
 * chunker is refused (ArtifactError, exit 4) before anything local is written. Its tables are opened only when
 * there is something to copy (openRemoteReader).
 */
export async function checkRemote(ctx: IndexContext, identity: IndexIdentity, onNotice?: (message: string) => void): Promise<RemoteStore | null> {
  if (!ctx.config.remote) return null;
  let remote: RemoteStore | null = null;
  try {
    remote = openRemote(ctx.config.remote, ctx.layout);
    const theirs = await readRemoteIdentity(remote);
    if (!theirs) return null;
    assertRemoteIdentity(remote, theirs, identity);
    return remote;
  } catch (e) {
    return notUsable(e, remote?.uri ?? ctx.config.remote, onNotice);
  }
}

/** Opens a checked remote's tables for reading, or null when they can't be (one line says so). */
export async function openRemoteReader(remote: RemoteStore, identity: IndexIdentity, onNotice?: (message: string) => void): Promise<RemoteReader | null> {
  try {
    return { remote, store: await openStore(remote.location, identity.dim, { create: false }) };
  } catch (e) {
    return notUsable(e, remote.uri, onNotice);
  }
}

/** Refused content fails the run; anything else (unreachable, no credentials, no tables) leaves it local. */
function notUsable(e: unknown, uri: string, onNotice?: (message: string) => void): null {
  if (e instanceof ArtifactError) throw e;
  onNotice?.(`ocrag: remote store ${uri} not usable (${whyNot(e)}); indexing locally`);
  return null;
}

/**
 * Copies from the remote the chunks and marks of those of these blobs it holds (vectors and text as they are:
 * nothing embedded), each batch checked first as an artifact's rows are (every chunk id derived again from its
 * blob, span, model and chunker; vectors finite and of this size), and returns the blobs now known. A row that
 * fails refuses the remote. Unreachable midway: what was copied stays, the rest is embedded locally. `onCopied`
 * hears each group of batches once stored, in the order they were.
 */
export async function readThrough(
  reader: RemoteReader,
  local: ContentStore,
  identity: IndexIdentity,
  blobs: string[],
  check: RemoteCheck,
  onNotice?: (message: string) => void,
  onCopied?: (batches: ChunkBatch[]) => void,
): Promise<{ known: Map<string, BlobState>; copied: Set<string>; summary: ReadThroughSummary }> {
  const known = new Map<string, BlobState>();
  const copied = new Set<string>();
  const summary: ReadThroughSummary = { remote: reader.remote.uri, blobs: 0, chunks: 0, marks: 0, contents: 0, searchSet: false };
  let writing: Promise<void> = Promise.resolve();
  try {
    const asked = new Set(blobs);
    const seen = new Set<string>();
    let pending: ChunkBatch[] = [];
    let rows = 0;
    // One local write under way while the remote is read on: the copy's two halves overlap.
    const flush = async () => {
      const [batches, count] = [pending, rows];
      [pending, rows] = [[], 0];
      await writing;
      writing = (async () => {
        if (batches.length) await local.addChunkBatchesNotStored(batches);
        onCopied?.(batches);
        for (const batch of batches) {
          const { id } = readFields(batch, ['id']);
          for (let i = 0; i < batch.numRows; i++) copied.add(id(i));
        }
        summary.chunks += count;
      })();
      writing.catch(() => undefined);
    };
    // The chunks are read first, for every blob asked (one scan of the references for a long list, not one
    // look-up per few hundred blobs); only the blobs none came for are then looked up, for their marks.
    for await (const batch of reader.store.chunkColumns(blobs, CHUNK_FIELDS)) {
      checkRemoteRows(reader.remote.uri, batch, asked, identity);
      if (!(await check.rows.checkBatch(batch))) throw check.refused();
      const { blob } = readFields(batch, ['blob']);
      for (let i = 0; i < batch.numRows; i++) seen.add(blob(i));
      pending.push(batch);
      rows += batch.numRows;
      if (rows >= ROWS_PER_COPY) await flush();
    }
    await flush();
    await writing;
    const state = new Map<string, BlobState>([...seen].map((b) => [b, 'chunks']));
    const unseen = blobs.filter((b) => !seen.has(b));
    for (const [blob, s] of unseen.length ? await reader.store.blobState(unseen) : []) if (s !== 'chunks') state.set(blob, s);
    const marks = [...state].flatMap(([blob, s]) => (s !== 'chunks' ? [{ blob, reason: s }] : []));
    if (!(await check.rows.checkMarks(marks))) throw check.refused();
    await check.finish();
    await local.addMarks(marks);
    for (const [blob, s] of state) known.set(blob, s);
    summary.blobs = state.size;
    summary.marks = marks.length;
  } catch (e) {
    // What was copied is left for the caller to take out (it knows every blob this run may have added).
    if (e instanceof ArtifactError) throw await settled(writing, e);
    // A compaction that removed the version being read also lands here: the rest is embedded locally.
    onNotice?.(`ocrag: remote store ${reader.remote.uri} failed midway (${whyNot(e)}); embedding the rest locally`);
  }
  return { known, copied, summary };
}

/** The error, once the write under way has ended (it may have added rows the caller then takes out). */
async function settled(writing: Promise<void>, e: ArtifactError): Promise<ArtifactError> {
  await writing.catch(() => undefined);
  return e;
}

/**
 * The remote's vectors of contents the local store lacks, for the blobs it does not hold (a file edited since it
 * was published: its unchanged functions were embedded by whoever published it). Each is held to the text this
 * repository has under its key (`checkContent`: words, unit length, a keyed sample embedded again); one that
 * fails refuses the run; a remote that fails to answer is asked no more in this run, and what it did not give is
 * embedded. The sample's embeddings end with the run's `check.finish()`.
 */
export function remoteContents(reader: RemoteReader, check: RemoteCheck, onNotice?: (message: string) => void): CopyContents {
  let failed = false;
  return async (wanted) => {
    if (failed) return new Map();
    try {
      const found = await reader.store.contentVectors(wanted.keys());
      for (const [key, content] of found) {
        const chunk = wanted.get(key);
        // A content not asked for is none of this run's business.
        if (chunk === undefined) found.delete(key);
        else if (!check.rows.checkContent(key, chunk, content, check.contentSampled(key))) throw check.refused();
      }
      return found;
    } catch (e) {
      if (e instanceof ArtifactError) throw e;
      failed = true;
      onNotice?.(`ocrag: remote store ${reader.remote.uri} failed (${whyNot(e)}); embedding the rest locally`);
      return new Map();
    }
  };
}

/** The first clause of a failure, without the place (the caller names it) or LanceDB's source locations. */
function whyNot(e: unknown): string {
  if (e instanceof StoreDamageError) return 'no tables';
  const message = e instanceof RemoteUnavailableError ? e.message.replace(/^\S+: /, '') : e instanceof Error ? e.message : String(e);
  const first = message.split(/\s+Caused by:/)[0].replace(/,\s*\/\S+\.rs:\d+:\d+/g, '').trim();
  return first.length > 160 ? `${first.slice(0, 157)}...` : first;
}

/** Every row as an import checks it: a blob asked for, the id this ocrag derives, a finite vector of this size. */
function checkRemoteRows(uri: string, batch: ChunkBatch, blobs: Set<string>, identity: IndexIdentity): void {
  const versionOf = chunkerVersionsByLanguage(identity);
  const fail = (row: number, what: string): never => {
    throw new ArtifactError(`the remote store ${uri} is not usable: row ${row + 1} of a batch ${what}: refused (nothing of it was added)`);
  };
  const fields = ['id', 'blob', 'startLine', 'endLine', 'language', 'vector'] as const;
  if (lacksFields(batch, fields)) fail(0, 'lacks a column');
  const { id, blob: blobOf, startLine, endLine, language, vector: vectorOf } = readFields(batch, fields);
  for (let i = 0; i < batch.numRows; i++) {
    const blob = blobOf(i);
    if (!blobs.has(blob)) fail(i, `names blob ${blob.slice(0, 40)}, which was not asked for`);
    if (id(i) !== chunkId(blob, versionOf(language(i)), identity.modelId, startLine(i), endLine(i))) fail(i, `(blob ${blob}) has a chunk id that does not match its blob, span, model and chunker`);
    const vector = vectorOf(i);
    if (vector.length !== identity.dim) fail(i, `(blob ${blob}) has no ${identity.dim}-d vector`);
    for (let k = 0; k < identity.dim; k++) if (!Number.isFinite(vector[k])) fail(i, `(blob ${blob}) has a vector value that is not a finite number`);
  }
}
