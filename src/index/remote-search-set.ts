import fs from 'node:fs';
import path from 'node:path';
import { readSnapshot, type ResidentState, type RestoredState } from '../search/resident-snapshot.js';
import type { ChunkInfo } from '../store/contract.js';
import type { IndexIdentity } from '../store/identity.js';
import { readRemoteSearchSet } from '../store/remote.js';
import { chunkId } from './chunk-id.js';
import { chunkerVersionsByLanguage } from '../chunk/version.js';
import type { RemoteReader } from './read-through.js';
import { describeProblem, type RowVerifier, type VerifiableRow } from './verify/index.js';
import { derivedProblem } from './verify/search-set.js';

/**
 * The search-ready set published for this commit (share/publish-search-set.ts), its bytes checked against the
 * sha256 its record names, or null: none published, another identity, bytes that do not match, or the remote
 * failing (the first search then builds the set from the chunks copied, as without a remote). Never throws.
 */
export async function fetchSearchSet(reader: RemoteReader, commit: string, identity: IndexIdentity, fetchedBefore?: string): Promise<Buffer | null> {
  try {
    // A first search of this clone fetched it already (remote-first.ts): it is checked again when placed.
    if (fetchedBefore && fs.existsSync(fetchedBefore)) return fs.readFileSync(fetchedBefore);
    return (await readRemoteSearchSet(reader.remote, commit, identity))?.body ?? null;
  } catch {
    return null;
  }
}

/**
 * Places a fetched search-ready set at `file` (the local store's snapshot, or a fresh clone's first answer) when
 * every row's chunk id is derived again from its blob, span, model and chunker, the row is `accepted` (a chunk
 * this run copied and checked; a blob of HEAD's tree) and `verifier` holds it to this repository (its text, and
 * for the sample its breadcrumb and vector: verify/). True when placed; a problem the verifier found (the set is
 * then refused), or false: not a set of this identity, a row not accepted, a file already there. Closes `verifier`.
 * `onPlaced` is given the set as read and checked, all of it in memory, once it is placed.
 */
export async function placeSearchSet(body: Buffer, file: string, identity: IndexIdentity, accepted: (chunk: ChunkInfo) => boolean, verifier: RowVerifier, onPlaced?: (read: RestoredState) => void): Promise<boolean | string> {
  const tmp = `${file}.${process.pid}.fetched`;
  let placed: boolean | string = false;
  try {
    if (fs.existsSync(file)) return false;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(tmp, body);
    const restored = readSnapshot(tmp, identity.dim);
    if (!restored) return false;
    try {
      // Every row's text is checked: read in whole at once, not a 1 KiB block per row (~0.27 s of reads on tokio).
      restored.detach();
      const { info } = restored.state;
      const versionOf = chunkerVersionsByLanguage(identity);
      if (!info.every((c) => accepted(c) && c.id === chunkId(c.blob, versionOf(c.language), identity.modelId, c.startLine, c.endLine))) return false;
      for (let at = 0; at < info.length; at += ROWS_PER_CHECK) if (!(await verifier.check(setRows(restored.state, identity.dim, at, Math.min(info.length, at + ROWS_PER_CHECK))))) break;
      if (!(await verifier.finish())) return (placed = describeProblem(verifier.problems[0]));
      // What the set derives from its rows (postings, lengths, symbol table), on the rows whose vectors were checked.
      const derived = derivedProblem(restored.state, new Set(info.flatMap((c, i) => (verifier.sampleOf(c.blob).vectors ? [i] : []))));
      if (derived) return (placed = derived);
    } finally {
      restored.detach();
    }
    fs.renameSync(tmp, file);
    onPlaced?.(restored);
    return (placed = true);
  } catch {
    return false;
  } finally {
    await verifier.close();
    if (placed !== true) fs.rmSync(tmp, { force: true });
  }
}

/** Rows checked at a time: their vectors are made float again for the check, 2 KB each. */
const ROWS_PER_CHECK = 4096;

/** A set's rows from `from` to `to`, their int8 vectors back in floats. */
function* setRows(state: ResidentState, dim: number, from: number, to: number): Generator<VerifiableRow> {
  const floats = floatVectors(state, dim, from, to);
  for (let i = from; i < to; i++) {
    const c = state.info[i];
    const vector = floats.subarray((i - from) * dim, (i - from + 1) * dim);
    yield { id: c.id, blob: c.blob, startLine: c.startLine, endLine: c.endLine, language: c.language, symbol: c.symbol, text: c.text, vector, quantized: true };
  }
}

/**
 * Rows `from` to `to`'s int8 vectors back in floats, in one array, outside the generator: tokio's 14,633 rows took
 * ~60 ms of CPU as an array each inside it, ~40 ms so (a cold process, as a first answer runs).
 */
function floatVectors(state: ResidentState, dim: number, from: number, to: number): Float32Array {
  const floats = new Float32Array((to - from) * dim);
  for (let i = from; i < to; i++) {
    const scale = state.scales[i];
    for (let d = 0, at = (i - from) * dim, src = i * dim; d < dim; d++) floats[at + d] = state.vectors[src + d] * scale;
  }
  return floats;
}
