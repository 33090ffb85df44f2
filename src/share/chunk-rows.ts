import { chunkerVersionOf, parseChunkerVersions } from '../chunk/version.js';
import { chunkId } from '../index/chunk-id.js';
import { rawStrings, readFields } from '../store/chunk-batch.js';
import { decodeChunkBytes, encodeChunkBytes, joinVectors, type ChunkBytes, type ChunkBytesNames } from '../store/chunk-bytes.js';
import type { ChunkBatch } from '../store/contract.js';
import type { IndexIdentity } from '../store/identity.js';
import { ArtifactError } from '../util/errors.js';
import { shown } from '../util/shown.js';
import { isObjectId } from '../git/object-id.js';
import { ROWS_PER_ENTRY } from './format.js';

/** What every row of an artifact must agree with: its header's identity and its manifest's blobs. */
export interface RowExpectations extends IndexIdentity {
  /** The importing side's chunker versions: then a row of a language they chunk otherwise is refused. */
  localChunkerVersion?: string;
  /** Blobs the manifest indexes; a row of any other blob is refused. */
  blobs: Set<string>;
}

/** A chunk entry that passed every check: one Arrow batch of the store's columns, ready to be added as it is. */
export interface CheckedChunks {
  batch: ChunkBatch;
  blobs: Set<string>;
}

/** A chunk entry's two halves: its rows' columns as an Arrow IPC stream, and their vectors as raw float32s (store/chunk-bytes.ts). */
export type ChunkEntry = ChunkBytes;
/** Names of the two members of a chunk entry, for messages. */
export type ChunkEntryNames = ChunkBytesNames;

const MAX_LINE = 100_000_000;

/** Cuts a stored batch into chunk entries of at most ROWS_PER_ENTRY rows. */
export function encodeChunkBatch(batch: ChunkBatch, dim: number): Generator<ChunkEntry> {
  return encodeChunkBytes(batch, dim, ROWS_PER_ENTRY);
}

/**
 * Decodes one chunk entry and checks it: down to the buffers (store/chunk-bytes.ts), since the batch goes to the
 * store as it is; and per row a known blob, a sane span, the id this ocrag derives from blob, chunker, model and
 * span, and a finite vector.
 */
export function decodeChunkEntry(names: ChunkEntryNames, entry: ChunkEntry, expect: RowExpectations): CheckedChunks {
  const { columns, vectors, nonFiniteRow } = decodeChunkBytes(names, entry, expect.dim);
  const fail = (member: string, what: string): never => {
    throw new ArtifactError(`artifact entry ${member}: ${what}`);
  };
  const blobs = new Set<string>();
  const rowProblem = rowChecker(columns, expect, blobs);
  for (let i = 0; i < columns.numRows; i++) {
    const problem = rowProblem(i);
    if (problem) fail(names.columns, `row ${i + 1}: ${problem}`);
    if (i === nonFiniteRow) fail(names.vectors, `row ${i + 1}: vector holds a value that is not a finite number`);
  }
  return { batch: joinVectors(columns, vectors, expect.dim), blobs };
}

/** Checks row i, adding its blob to `blobs`. */
function rowChecker(batch: ChunkBatch, expect: RowExpectations, blobs: Set<string>): (i: number) => string | null {
  const [ids, blobColumn, languages, symbols] = (['id', 'blob', 'language', 'symbol'] as const).map((f) => rawStrings(batch, f));
  const { startLine, endLine } = readFields(batch, ['startLine', 'endLine']);
  const versionOf = languageVersions(expect);
  return (i) => {
    const blob = blobColumn.latin1(i);
    if (!isObjectId(blob)) return `invalid blob id ${shown(blob)}`;
    if (!expect.blobs.has(blob)) return `blob ${blob} is not in the artifact's manifest`;
    blobs.add(blob);
    const start = startLine(i);
    const end = endLine(i);
    if (start < 1 || end < start || end > MAX_LINE) return `invalid line span ${start}-${end}`;
    const id = ids.latin1(i);
    const version = versionOf(languages.bytes(i) > 64 ? '' : languages.latin1(i));
    if (id !== chunkId(blob, version, expect.modelId, start, end)) return `chunk id ${shown(id)} does not match its blob, span, model and chunker`;
    if (languages.bytes(i) > 64 || symbols.bytes(i) > 64 * 1024) return 'language or symbol is implausibly long';
    return null;
  };
}

/**
 * The chunker version of a language's rows, as the header says. With the importing side's versions, a language
 * they chunk otherwise refuses the artifact: its chunks are not the ones this ocrag would make.
 */
function languageVersions(expect: RowExpectations): (language: string) => string {
  const artifact = parseChunkerVersions(expect.chunkerVersion);
  const here = expect.localChunkerVersion === undefined ? null : parseChunkerVersions(expect.localChunkerVersion);
  const known = new Map<string, string>();
  return (language) => {
    let version = known.get(language);
    if (version !== undefined) return version;
    version = chunkerVersionOf(language, artifact);
    const local = here && chunkerVersionOf(language, here);
    if (local !== null && local !== version) {
      throw new ArtifactError(`artifact holds ${shown(language)} chunks of chunker version ${shown(version)} but this ocrag chunks them with version ${local}: export it again with this ocrag version`);
    }
    known.set(language, version);
    return version;
  };
}

