import { chunkerVersion, chunkerVersionOf, parseChunkerVersions } from '../chunk/version.js';
import type { BlobState } from '../store/blob-state.js';
import type { ChunkBatch, ChunkStore } from '../store/contract.js';
import type { IndexIdentity } from '../store/identity.js';
import { openStore } from '../store/open-store.js';
import { assertRemoteIdentity, openRemote, readRemoteIdentity, type RemoteStore } from '../store/remote.js';
import { ArtifactError, RemoteUnavailableError, StoreDamageError } from '../util/errors.js';
import { chunkId } from './chunk-id.js';
import type { IndexContext } from './context.js';

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
}

/** Blobs asked of the remote per look-up and copy: one copy is one local commit of their chunks. */
const BLOBS_PER_COPY = 2000;

/**
 * Opens the configured remote store for reading, or null: none configured, nothing published there yet, or
 * unreachable (then one line says so and the run indexes locally). A remote of another model, vector size or
 * chunker is refused (ArtifactError, exit 4) before anything local is written.
 */
export async function openRemoteReader(ctx: IndexContext, identity: IndexIdentity, onNotice?: (message: string) => void): Promise<RemoteReader | null> {
  if (!ctx.config.remote) return null;
  const remote = openRemote(ctx.config.remote, ctx.layout);
  try {
    const theirs = await readRemoteIdentity(remote);
    if (!theirs) return null;
    assertRemoteIdentity(remote, theirs, identity);
    return { remote, store: await openStore(remote.location, identity.dim, { create: false }) };
  } catch (e) {
    if (e instanceof RemoteUnavailableError || e instanceof StoreDamageError) {
      onNotice?.(`ocrag: remote store ${remote.uri} not usable (${e instanceof StoreDamageError ? 'no tables' : e.message.replace(/^\S+: /, '')}); indexing locally`);
      return null;
    }
    throw e;
  }
}

/**
 * Copies from the remote the chunks and marks of those of these blobs it holds (vectors and text as they are:
 * nothing embedded), each batch checked first as an artifact's rows are (every chunk id derived again from its
 * blob, span, model and chunker; vectors finite and of this size), and returns the blobs now known. A row that
 * fails refuses the remote. Unreachable midway: what was copied stays, the rest is embedded locally.
 */
export async function readThrough(reader: RemoteReader, local: ChunkStore, identity: IndexIdentity, blobs: string[], onNotice?: (message: string) => void): Promise<{ known: Map<string, BlobState>; summary: ReadThroughSummary }> {
  const known = new Map<string, BlobState>();
  const summary: ReadThroughSummary = { remote: reader.remote.uri, blobs: 0, chunks: 0, marks: 0 };
  try {
    for (let at = 0; at < blobs.length; at += BLOBS_PER_COPY) {
      const group = blobs.slice(at, at + BLOBS_PER_COPY);
      const state = await reader.store.blobState(group);
      const withChunks = group.filter((b) => state.get(b) === 'chunks');
      const batches: ChunkBatch[] = [];
      for await (const batch of reader.store.chunkBatchesOf(withChunks)) {
        checkRemoteRows(reader.remote.uri, batch, new Set(withChunks), identity);
        batches.push(batch);
      }
      if (batches.length) await local.addChunkBatchesNotStored(batches);
      const marks = group.flatMap((blob) => {
        const s = state.get(blob);
        return s && s !== 'chunks' ? [{ blob, reason: s }] : [];
      });
      await local.addMarks(marks);
      for (const [blob, s] of state) known.set(blob, s);
      summary.blobs += state.size;
      summary.chunks += batches.reduce((n, b) => n + b.numRows, 0);
      summary.marks += marks.length;
    }
  } catch (e) {
    if (!(e instanceof RemoteUnavailableError) && !isConnectionFailure(e)) throw e;
    onNotice?.(`ocrag: remote store ${reader.remote.uri} became unreachable; embedding the rest locally`);
  }
  return { known, summary };
}

/** LanceDB's words for an object store it cannot reach. */
function isConnectionFailure(e: unknown): boolean {
  return e instanceof Error && /error sending request|connection refused|tcp connect|dns error|timed out/i.test(e.message);
}

/** Every row as an import checks it: a blob asked for, the id this ocrag derives, a finite vector of this size. */
function checkRemoteRows(uri: string, batch: ChunkBatch, blobs: Set<string>, identity: IndexIdentity): void {
  const versions = parseChunkerVersions(identity.chunkerVersion ?? chunkerVersion());
  const col = (name: string) => batch.getChild(name);
  const [ids, blobCol, starts, ends, languages, vectors] = ['id', 'blob', 'start_line', 'end_line', 'language', 'vector'].map(col);
  const fail = (row: number, what: string): never => {
    throw new ArtifactError(`the remote store ${uri} is not usable: row ${row + 1} of a batch ${what}: refused (nothing of it was added)`);
  };
  if (!ids || !blobCol || !starts || !ends || !languages || !vectors) fail(0, 'lacks a column');
  for (let i = 0; i < batch.numRows; i++) {
    const blob = blobCol!.get(i) as string;
    if (!blobs.has(blob)) fail(i, `names blob ${String(blob).slice(0, 40)}, which was not asked for`);
    const [start, end] = [starts!.get(i) as number, ends!.get(i) as number];
    if (ids!.get(i) !== chunkId(blob, chunkerVersionOf(languages!.get(i) as string, versions), identity.modelId, start, end)) fail(i, `(blob ${blob}) has a chunk id that does not match its blob, span, model and chunker`);
    const vector = (vectors!.get(i) as { toArray(): Float32Array } | null)?.toArray();
    if (!vector || vector.length !== identity.dim) fail(i, `(blob ${blob}) has no ${identity.dim}-d vector`);
    for (let k = 0; k < identity.dim; k++) if (!Number.isFinite(vector![k])) fail(i, `(blob ${blob}) has a vector value that is not a finite number`);
  }
}
