import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ChunkInfo } from '../store/contract.js';
import { streamAtomically } from '../util/atomic-write.js';
import { noPause, runPausing, type Pause, type Steps } from '../util/event-loop.js';
import { packBytes, packStrings, unpackStrings, type PackedStrings } from './packed-strings.js';
import { ListTable, PostingTable } from './postings.js';
import { listSections, readListSections } from './list-sections.js';
import { SectionedFile, writeSectionedFilePausing, type Section } from './sectioned-file.js';
import { segmentRoom, segmentsDamage } from './resident-segments.js';
import { packNameWords, unpackNameWords, type NameWords } from './file-names.js';
import { crashPoint } from '../util/crash-point.js';
import { LazyStrings, RestoredChunk, type RestoredColumns } from './restored-chunk.js';
import { vectorsBlock } from './int8-dots.js';

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
  /** Whether a chunk is a member of another chunk of its blob (members.ts), which a view leaves out. */
  isMember: (i: number) => boolean;
  /** The words of the names each blob's chunks define (file-names.ts); empty for a blob the set does not hold. */
  fileNames: (blob: string) => NameWords;
}

/**
 * Snapshot layout: a sectioned file (see sectioned-file.ts); version 6 keeps texts on disk until read. Bumped also
 * when the postings built from the same rows change (7: CJK comments give bigrams; 8: `-ate` words stem as their
 * `-ation`; 9: `-ied` and `-ification` as `-y`), so no stale set is restored; 10 (`A`): every section checksummed;
 * 11 (`B`): which chunks are members and each blob's name words, worked out when written, not by every search.
 * Only the first 8 characters are written.
 */
const MAGIC = 'ocragRSB';
const EAGER = [
  'ids.utf8', 'ids.ends', 'blobs.utf8', 'blobs.ends', 'blobOf', 'languageOf', 'starts', 'ends', 'symbols.utf8', 'symbols.ends',
  'textEnds', 'lengths', 'scales', 'vectors', 'definitions.keys.utf8', 'definitions.keys.ends', 'definitions.starts', 'definitions.docs',
  'postings.keys.utf8', 'postings.keys.ends', 'postings.starts', 'postings.docs', 'postings.tfs', 'empty.utf8', 'empty.ends',
  'members', 'names.words.utf8', 'names.words.ends', 'names.starts', 'names.ids', 'names.counts',
];

interface SnapshotMeta {
  dim: number;
  count: number;
  languages: string[];
  /** Names this snapshot to the segments that extend it (resident-segments.ts); absent in one written before segments. */
  id?: string;
  /**
   * Its words and names are in order (`PackedLists.inOrder`), found by bisection; absent in one written before
   * that (read through a map of every key, as then), or one with a key that does not read back as written.
   */
  sortedKeys?: true;
}

/** A restored state and the file its texts are still read from. */
export interface RestoredState {
  state: ResidentState;
  /** The snapshot's id, which its segments name; undefined for one that takes none. */
  id: string | undefined;
  /** Reads what is left of the file into memory and closes it: call before the file may be replaced. */
  detach(): void;
  /** Lets go of the file without reading its texts: the state is not to be used. */
  close(): void;
}

/**
 * A snapshot that is missing, torn, damaged or of another layout reads as null: the set is then rebuilt from the
 * store. A text read later that fails its checksum throws SectionDamageError (sectioned-file.ts).
 */
export function readSnapshot(file: string, dim: number): RestoredState | null {
  // Read into WebAssembly memory where the cosine kernel will use the vectors in place (int8-dots.ts), last, with
  // room after them for the rows of the segments that extend this snapshot.
  const allocate = (bytes: number, meta: SnapshotMeta) => vectorsBlock(bytes, meta.count, meta.dim, meta.id === undefined ? 0 : segmentRoom(file, meta.id, meta.dim));
  const opened = SectionedFile.open<SnapshotMeta>(file, MAGIC, EAGER, { allocate, last: 'vectors' });
  if (!opened) return null;
  try {
    const state = unpack(opened, dim);
    if (state) return { state, id: opened.meta.id, detach: () => opened.detach(), close: () => opened.close() };
  } catch {
    // Falls through: a snapshot that does not add up is no snapshot.
  }
  // Nothing of it is used: let go of the file without reading its texts in.
  opened.close();
  return null;
}

/** The blobs a snapshot holds (chunks or none) and its id, read without its chunks; null as readSnapshot's. */
export function snapshotBlobs(file: string, dim: number): { id: string | undefined; blobs: Set<string> } | null {
  const opened = SectionedFile.open<SnapshotMeta>(file, MAGIC, ['blobs.utf8', 'blobs.ends', 'empty.utf8', 'empty.ends'], { lazy: false });
  if (!opened) return null;
  try {
    if (opened.meta.dim !== dim) return null;
    const strings = (name: string) => unpackStrings({ utf8: opened.section(`${name}.utf8`) as Uint8Array, ends: opened.section(`${name}.ends`) as Uint32Array });
    return { id: opened.meta.id, blobs: new Set([...strings('blobs'), ...strings('empty')]) };
  } catch {
    return null;
  } finally {
    opened.close();
  }
}

/**
 * Why a snapshot of this layout would not be restored (torn, or bytes that fail their checksums), or null: absent,
 * of another layout (the next search replaces it), or whole. Reads every byte, texts too.
 */
export function snapshotDamage(file: string, dim: number): string | null {
  if (!SectionedFile.hasMagic(file, MAGIC)) return null;
  const restored = readSnapshot(file, dim);
  if (!restored) return 'torn, or its header or an eager section does not match its checksum';
  try {
    restored.detach();
    return segmentsDamage(file, restored.id, dim);
  } catch (e) {
    return (e as Error).message;
  }
}

function unpack(file: SectionedFile<SnapshotMeta>, dim: number): ResidentState | null {
  const { meta } = file;
  const n = meta.count;
  const section = <T extends Section>(name: string) => file.section(name) as T;
  const strings = (name: string) => unpackStrings({ utf8: section<Uint8Array>(`${name}.utf8`), ends: section<Uint32Array>(`${name}.ends`) });
  const vectors = section<Int8Array>('vectors');
  const starts = section<Int32Array>('starts');
  const ends = section<Int32Array>('ends');
  const blobOf = section<Int32Array>('blobOf');
  const languageOf = section<Uint16Array>('languageOf');
  const textEnds = section<Uint32Array>('textEnds');
  const members = section<Uint8Array>('members');
  if (meta.dim !== dim || vectors.length !== n * dim || starts.length !== n || textEnds.length !== n || members.length !== n) return null;
  const lazy = (name: string) => new LazyStrings({ utf8: section<Uint8Array>(`${name}.utf8`), ends: section<Uint32Array>(`${name}.ends`) });
  const columns: RestoredColumns = { file, ids: lazy('ids'), symbols: lazy('symbols'), textEnds };
  if (columns.ids.count !== n || columns.symbols.count !== n) return null;
  const blobs = strings('blobs');
  const namesOf = unpackNameWords(
    { words: { utf8: section<Uint8Array>('names.words.utf8'), ends: section<Uint32Array>('names.words.ends') }, starts: section<Uint32Array>('names.starts'), ids: section<Uint32Array>('names.ids'), counts: section<Uint32Array>('names.counts') },
    blobs.length,
  );
  if (!namesOf) return null;
  const info = new Array<ChunkInfo>(n);
  const byBlob = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const blob = blobs[blobOf[i]];
    info[i] = new RestoredChunk(columns, i, blob, starts[i], ends[i], meta.languages[languageOf[i]]);
    const list = byBlob.get(blob);
    if (list) list.push(i);
    else byBlob.set(blob, [i]);
  }
  const lists = (name: string, columns: string[]) => readListSections(file, name, columns, meta.sortedKeys === true);
  return {
    info,
    lengths: numbers(section<Float64Array>('lengths')),
    scales: numbers(section<Float64Array>('scales')),
    vectors,
    definitions: ListTable.unpack(lists('definitions', ['docs'])),
    postings: new PostingTable(ListTable.unpack(lists('postings', ['docs', 'tfs']))),
    byBlob,
    empty: new Set(strings('empty')),
    isMember: (i) => members[i] === 1,
    fileNames: (blob) => {
      const chunks = byBlob.get(blob);
      return chunks ? namesOf(blobOf[chunks[0]]) : new Map();
    },
  };
}

/** A column as an array of numbers, in one allocation (Array.from went through the iterator: 1.7 MB of garbage on tokio). */
function numbers(column: Float64Array): number[] {
  const out = new Array<number>(column.length);
  for (let i = 0; i < column.length; i++) out[i] = column[i];
  return out;
}

/**
 * Writes atomically (a reader sees the old file or the new one) and returns the new snapshot's id, or null when
 * writing failed, which only costs the next process time. The event loop is let in at each `pause`: packing and
 * writing a 1,000-file tree's set held a server's thread 70–100 ms at once, and an agent's status poll with it.
 */
export async function writeSnapshot(file: string, dim: number, state: ResidentState, pause: Pause = noPause): Promise<string | null> {
  try {
    const { meta, eager, lazy } = await runPausing(pack(dim, state), pause);
    // Not flushed to disk: a search that loaded new blobs writes it before answering, and an fsync of a
    // large repository's snapshot (30-100 MB) adds 150-300 ms there; a snapshot a crash tore reads as absent.
    await streamAtomically(file, async (tmp) => (await writeSectionedFilePausing(tmp, MAGIC, meta, eager, lazy, pause), crashPoint('snapshot.write')), { durable: false });
    // One store incarnation and model is current at a time: older snapshots (and older layouts) are dead weight.
    // A process still reading one holds it open, so removing it is safe.
    const dir = path.dirname(file);
    // Segments (resident-segments.ts) of any snapshot before this one are in it now, or of a replaced incarnation.
    for (const other of fs.readdirSync(dir)) if (/\.(?:v8|snap|seg)$/.test(other) && other !== path.basename(file)) fs.rmSync(path.join(dir, other), { force: true });
    return meta.id!;
  } catch {
    // A cache: a wrong answer is impossible, only a slower next start.
    return null;
  }
}

/** Chunks handled between two chances to pause while packing: each costs a few microseconds. */
const STEP_CHUNKS = 2048;
/** Blobs whose name words are worked out between two pauses: tokio's 861 took 120-140 ms all told (breadcrumbs parsed cold). */
const STEP_BLOBS = 64;

function* pack(dim: number, state: ResidentState): Steps<{ meta: SnapshotMeta; eager: Record<string, Section>; lazy: Record<string, Section> }> {
  const n = state.info.length;
  const blobIndex = new Map<string, number>();
  const languageIndex = new Map<string, number>();
  const blobOf = new Int32Array(n);
  const languageOf = new Uint16Array(n);
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  const members = new Uint8Array(n);
  const ids: string[] = [];
  const symbols: string[] = [];
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    const c = state.info[i];
    if (!blobIndex.has(c.blob)) blobIndex.set(c.blob, blobIndex.size);
    if (!languageIndex.has(c.language)) languageIndex.set(c.language, languageIndex.size);
    blobOf[i] = blobIndex.get(c.blob)!;
    languageOf[i] = languageIndex.get(c.language)!;
    starts[i] = c.startLine;
    ends[i] = c.endLine;
    members[i] = state.isMember(i) ? 1 : 0;
    ids.push(c.id);
    symbols.push(c.symbol);
    // A restored chunk's text is read from the snapshot file here, a block at a time.
    texts.push(c.text);
    if (i % STEP_CHUNKS === STEP_CHUNKS - 1) yield;
  }
  const eager: Record<string, Section> = { blobOf, languageOf, starts, ends, members };
  const stringSections = (name: string, packed: PackedStrings) => {
    eager[`${name}.utf8`] = packed.utf8;
    eager[`${name}.ends`] = packed.ends;
  };
  const strings = (name: string, items: string[]) => stringSections(name, packStrings(items));
  strings('ids', ids);
  strings('blobs', [...blobIndex.keys()]);
  strings('symbols', symbols);
  strings('empty', [...state.empty]);
  yield;
  const bags: NameWords[] = [];
  for (const blob of blobIndex.keys()) {
    bags.push(state.fileNames(blob));
    if (bags.length % STEP_BLOBS === 0) yield;
  }
  const names = packNameWords(bags);
  stringSections('names.words', names.words);
  Object.assign(eager, { 'names.starts': names.starts, 'names.ids': names.ids, 'names.counts': names.counts });
  yield;
  const packedTexts = packBytes(texts);
  eager.textEnds = packedTexts.byteEnds;
  eager.lengths = Float64Array.from(state.lengths);
  eager.scales = Float64Array.from(state.scales);
  eager.vectors = state.vectors.subarray(0, n * dim);
  yield;
  const definitions = yield* state.definitions.packing();
  const postings = yield* state.postings.lists.packing();
  Object.assign(eager, listSections('definitions', definitions, ['docs']), listSections('postings', postings, ['docs', 'tfs']));
  // Of what it holds, so the same set always writes the same bytes (a published set is stored by its sha256).
  const id = createHash('sha256').update(eager['ids.utf8'] as Uint8Array).update(eager['empty.utf8'] as Uint8Array).digest('hex').slice(0, 16);
  const sorted = definitions.inOrder && postings.inOrder ? { sortedKeys: true as const } : {};
  return { meta: { dim, count: n, languages: [...languageIndex.keys()], id, ...sorted }, eager, lazy: { texts: packedTexts.utf8 } };
}
