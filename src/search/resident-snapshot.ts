import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import type { ChunkInfo } from '../store/chunk-store.js';
import { packBytes, packStrings, unpackStrings, type PackedBytes, type PackedStrings } from './packed-strings.js';
import { ListTable, PostingTable, type PackedLists } from './postings.js';

/** Everything the resident set holds, as it lives in memory. */
export interface ResidentState {
  info: ChunkInfo[];
  lengths: number[];
  scales: number[];
  /** int8 vectors, `dim` per chunk, exactly `info.length` of them. */
  vectors: Int8Array;
  definitions: ListTable;
  postings: PostingTable;
  byBlob: Map<string, number[]>;
  empty: Set<string>;
}

/**
 * Version 2 on is columnar: typed arrays and a few long strings, so that reading it back is a handful of copies
 * rather than an object per chunk and per word (version 1 spent most of a one-shot search in deserialising and
 * collecting those objects).
 */
const SNAPSHOT_VERSION = 5;

interface Snapshot {
  version: number;
  dim: number;
  ids: PackedStrings;
  blobs: PackedStrings;
  blobOf: Int32Array;
  languages: string[];
  languageOf: Uint16Array;
  starts: Int32Array;
  ends: Int32Array;
  symbols: PackedStrings;
  texts: PackedBytes;
  lengths: Float64Array;
  scales: Float64Array;
  vectors: Int8Array;
  definitions: PackedLists;
  postings: PackedLists;
  empty: PackedStrings;
}

const utf8Decoder = new TextDecoder();

/**
 * A chunk read back from a snapshot. Its text is decoded from the snapshot's bytes when first read: a search
 * ranks and shows a few hundred chunks, so decoding every text up front was most of the restore.
 */
class RestoredChunk implements ChunkInfo {
  private decoded: string | null = null;

  constructor(
    readonly id: string,
    readonly blob: string,
    readonly startLine: number,
    readonly endLine: number,
    readonly language: string,
    readonly symbol: string,
    private readonly bytes: Uint8Array,
    private readonly start: number,
    private readonly end: number,
  ) {}

  get text(): string {
    return (this.decoded ??= utf8Decoder.decode(this.bytes.subarray(this.start, this.end)));
  }
}

/** A snapshot that is missing, torn or of another layout reads as null: the set is then rebuilt from the store. */
export function readSnapshot(file: string, dim: number): ResidentState | null {
  try {
    return unpack(v8.deserialize(fs.readFileSync(file)) as Snapshot, dim);
  } catch {
    return null;
  }
}

function unpack(snap: Snapshot, dim: number): ResidentState | null {
  const n = snap?.starts?.length;
  if (snap?.version !== SNAPSHOT_VERSION || snap.dim !== dim || snap.vectors?.length !== n * dim) return null;
  const ids = unpackStrings(snap.ids);
  const blobs = unpackStrings(snap.blobs);
  const symbols = unpackStrings(snap.symbols);
  const { utf8, byteEnds } = snap.texts;
  if (byteEnds.length !== n) return null;
  const info = new Array<ChunkInfo>(n);
  const byBlob = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const blob = blobs[snap.blobOf[i]];
    info[i] = new RestoredChunk(ids[i], blob, snap.starts[i], snap.ends[i], snap.languages[snap.languageOf[i]], symbols[i], utf8, i ? byteEnds[i - 1] : 0, byteEnds[i]);
    const list = byBlob.get(blob);
    if (list) list.push(i);
    else byBlob.set(blob, [i]);
  }
  return {
    info,
    lengths: Array.from(snap.lengths),
    scales: Array.from(snap.scales),
    vectors: snap.vectors,
    definitions: ListTable.unpack(snap.definitions),
    postings: new PostingTable(ListTable.unpack(snap.postings)),
    byBlob,
    empty: new Set(unpackStrings(snap.empty)),
  };
}

/** Writes atomically (a reader sees the old file or the new one); failing only costs the next process time. */
export function writeSnapshot(file: string, dim: number, state: ResidentState): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, v8.serialize(pack(dim, state)));
    fs.renameSync(tmp, file);
  } catch {
    // A cache: a wrong answer is impossible, only a slower next start.
  }
}

function pack(dim: number, state: ResidentState): Snapshot {
  const n = state.info.length;
  const blobIndex = new Map<string, number>();
  const languageIndex = new Map<string, number>();
  const blobOf = new Int32Array(n);
  const languageOf = new Uint16Array(n);
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  state.info.forEach((c, i) => {
    if (!blobIndex.has(c.blob)) blobIndex.set(c.blob, blobIndex.size);
    if (!languageIndex.has(c.language)) languageIndex.set(c.language, languageIndex.size);
    blobOf[i] = blobIndex.get(c.blob)!;
    languageOf[i] = languageIndex.get(c.language)!;
    starts[i] = c.startLine;
    ends[i] = c.endLine;
  });
  return {
    version: SNAPSHOT_VERSION,
    dim,
    ids: packStrings(state.info.map((c) => c.id)),
    blobs: packStrings([...blobIndex.keys()]),
    blobOf,
    languages: [...languageIndex.keys()],
    languageOf,
    starts,
    ends,
    symbols: packStrings(state.info.map((c) => c.symbol)),
    texts: packBytes(state.info.map((c) => c.text)),
    lengths: Float64Array.from(state.lengths),
    scales: Float64Array.from(state.scales),
    vectors: state.vectors.subarray(0, n * dim),
    definitions: state.definitions.pack(),
    postings: state.postings.lists.pack(),
    empty: packStrings([...state.empty]),
  };
}
