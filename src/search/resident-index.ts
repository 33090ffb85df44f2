import type { ChunkBatch, ChunkInfo, ChunkRow } from '../store/contract.js';
import { lacksFields, readFields } from '../store/chunk-batch.js';
import { CONTENT_FIELDS, REF_FIELDS } from '../store/chunk-columns.js';
import { ownDefinition } from '../text/breadcrumb.js';
import type { Pause } from '../util/event-loop.js';
import { int8DotKernel, KERNEL_MIN_CHUNKS, vectorsInRoom, type DotSums } from './int8-dots.js';
import { memberIndices } from './members.js';
import { NO_NAME_WORDS, nameWordsOf, type NameWords } from './file-names.js';
import { ListTable, PostingTable, type NumberList, type PackedLists } from './postings.js';
import { indexRow, type IndexedRow, type MemoRow, type RowMemo } from './row-memo.js';
import { MemoPostings } from './memo-postings.js';
import { PostingLog } from './posting-log.js';
import { quantize } from './quantize.js';

/**
 * Chunks held in memory for exact search: info, text, an int8 copy of each vector, postings of identifier-aware
 * words and the symbol table. How they get here and are kept between processes: resident.ts.
 */
export class ResidentIndex {
  /** Appended to, or taken whole from a snapshot restored into an empty set (resident.ts). */
  info: ChunkInfo[] = [];
  /** Lexical length of each chunk (words, name words weighted), for BM25 length normalisation. */
  lengths: number[] = [];
  /** Definition name (lower-case, without `$`/`_` prefixes) → chunks whose own breadcrumb defines it: the symbol table. */
  protected definitions = new ListTable(['int32']);
  private table = new PostingTable();
  /** The words of chunks added since the postings were last read (posting-log.ts). */
  private readonly log = new PostingLog();
  protected vectors: Int8Array;
  protected scales: number[] = [];
  protected readonly byBlob = new Map<string, number[]>();
  protected readonly empty = new Set<string>();
  protected readonly visible = new WeakMap<object, Int32Array>();
  /** Blob → its member chunks, worked out when first asked (a blob's rows never change once loaded whole). */
  protected readonly membersByBlob = new Map<string, Set<number>>();
  /** Blob → the words of the names it defines (file-names.ts), worked out when first asked. */
  private readonly namesByBlob = new Map<string, NameWords>();
  /** What a restored snapshot says of its chunks (the first `count`) and their blobs, so it is not worked out again. */
  protected restoredFacts: RestoredFacts = { count: 0, isMember: () => false, fileNames: () => undefined };
  protected ids = new Map<string, number>();
  /** The vectors' dot products in WebAssembly, made on the first large view; null where it is unavailable. */
  private kernel: DotSums | null | undefined;
  /** Rows indexed for earlier queries: given to a set of one query's candidates (candidates.ts), which is never written. */
  rowMemo?: RowMemo;
  /**
   * Rows of the memo this set's candidates were asked for without their content (NeedsContent, store/contract.ts),
   * kept in hand: the memo may forget them while the set is filled.
   */
  heldRows?: Map<string, IndexedRow>;
  constructor(readonly dim: number) {
    this.vectors = new Int8Array(dim * 1024);
  }

  /** Word → chunk indices and term frequencies. */
  get postings(): PostingTable {
    if (this.log.pending) this.table = this.log.drainInto(this.table);
    return this.table;
  }

  set postings(table: PostingTable) {
    this.table = table;
  }

  /** Chunk id → resident index (for results of the store's own full-text index). */
  idIndex(): Map<string, number> {
    if (this.ids.size !== this.info.length) this.ids = new Map(this.info.map((c, i) => [c.id, i]));
    return this.ids;
  }

  /** The chunks defining a name (`$ZodType`, `_private` and `zodtype` all find `ZodType`). */
  definitionsOf(name: string): NumberList {
    return this.definitions.get(definitionKey(name))?.[0] ?? [];
  }

  /** The chunks of a blob held here, members included (empty for a blob never loaded). */
  blobChunks(blob: string): readonly number[] {
    return this.byBlob.get(blob) ?? [];
  }

  get size(): number {
    return this.info.length;
  }

  /** The chunks of a blob held here; undefined for a blob never loaded (the store knows its count). */
  chunkCountOf(blob: string): number | undefined {
    return this.byBlob.get(blob)?.length ?? (this.empty.has(blob) ? 0 : undefined);
  }

  /**
   * Indices of the chunks of these blobs, computed once per key object (a view): without the members of a
   * definition kept whole (search/members.ts), which the symbol table alone brings in (letting every retriever see
   * them lowered the history sets' Chinese R@5 by 0.019: docs/retrieval.md).
   */
  chunksOf(key: object, blobs: Iterable<string>): Int32Array {
    let idx = this.visible.get(key);
    if (!idx) {
      const out: number[] = [];
      for (const b of blobs) for (const i of this.byBlob.get(b) ?? []) if (!this.isMember(i)) out.push(i);
      idx = Int32Array.from(out);
      this.visible.set(key, idx);
    }
    return idx;
  }

  /** Whether a chunk lies inside another of its blob's chunks as a member of it (search/members.ts). */
  isMember(i: number): boolean {
    if (i < this.restoredFacts.count) return this.restoredFacts.isMember(i);
    const blob = this.info[i].blob;
    let members = this.membersByBlob.get(blob);
    if (!members) this.membersByBlob.set(blob, (members = new Set(memberIndices(this.info, this.byBlob.get(blob) ?? []))));
    return members.has(i);
  }

  /** The words of the names a blob's chunks held here define, members left out (file-names.ts). */
  fileNames(blob: string): NameWords {
    // A large view's set of candidates holds few of its blobs: the others need no map each, nor a place here.
    if (!this.byBlob.has(blob)) return NO_NAME_WORDS;
    let words = this.namesByBlob.get(blob);
    if (!words) this.namesByBlob.set(blob, (words = this.restoredFacts.fileNames(blob) ?? nameWordsOf(this.info, this.blobChunks(blob).filter((i) => !this.isMember(i)))));
    return words;
  }

  /** Cosine of every listed chunk to a unit query vector (the stored vectors are unit length). */
  cosines(query: Float32Array, chunks: Int32Array): Float32Array {
    const out = new Float32Array(chunks.length);
    const from = this.kernelCosines(query, chunks, out);
    const dim = this.dim;
    const v = this.vectors;
    const q = Float32Array.from(query);
    for (let j = from; j < chunks.length; j++) {
      const i = chunks[j];
      const base = i * dim;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let d = 0;
      for (; d + 3 < dim; d += 4) {
        s0 += v[base + d] * q[d];
        s1 += v[base + d + 1] * q[d + 1];
        s2 += v[base + d + 2] * q[d + 2];
        s3 += v[base + d + 3] * q[d + 3];
      }
      for (; d < dim; d++) s0 += v[base + d] * q[d];
      out[j] = (s0 + s1 + s2 + s3) * this.scales[i];
    }
    return out;
  }

  /** The kernel's share of `cosines` (the same sums, int8-dots.ts): how many of the first chunks it filled in. */
  private kernelCosines(query: Float32Array, chunks: Int32Array, out: Float32Array): number {
    const even = chunks.length & ~1;
    if (even < KERNEL_MIN_CHUNKS || this.kernel === null) return 0;
    try {
      this.kernel ??= int8DotKernel(this.dim);
      if (!this.kernel) return 0;
      const sums = this.kernel(Float64Array.from(query), this.vectors, this.info.length, even === chunks.length ? chunks : chunks.subarray(0, even));
      for (let j = 0; j < even; j++) out[j] = sums[j] * this.scales[chunks[j]];
      return even;
    } catch {
      // Out of memory for the copy: the JavaScript loop answers, now and after.
      this.kernel = null;
      return 0;
    }
  }

  /**
   * Adds the rows of a batch whose blob is wanted (a set may hold only some of a blob's chunks: one query's
   * candidates) and whose id is not in `seen`, which then records them.
   */
  add(batch: ChunkBatch, wanted: Set<string>, seen?: Set<string>): void {
    const addAt = this.batchRowAdder(batch, wanted, seen);
    for (let r = 0; r < batch.numRows; r++) addAt(r);
  }

  /** As `add`, awaiting `pause` after each row: a whole batch's words are tens of milliseconds of work. */
  async addPausing(batch: ChunkBatch, wanted: Set<string>, pause: Pause): Promise<void> {
    const addAt = this.batchRowAdder(batch, wanted);
    for (let r = 0; r < batch.numRows; r++) {
      addAt(r);
      await pause();
    }
  }

  /** Adds row `r` of the batch when its blob is wanted and its id not seen. */
  private batchRowAdder(batch: ChunkBatch, wanted: Set<string>, seen?: Set<string>): (r: number) => void {
    const { id, blob: blobOf, startLine, endLine, language } = readFields(batch, REF_FIELDS);
    // Chunks the store gave without their content (heldRows) come in batches without those columns.
    const content = lacksFields(batch, CONTENT_FIELDS) ? null : readFields(batch, CONTENT_FIELDS);
    const fields = () => content ?? readFields(batch, CONTENT_FIELDS);
    return (r) => {
      const blob = blobOf(r);
      if (!wanted.has(blob)) return;
      const chunkId = id(r);
      if (seen) {
        if (seen.has(chunkId)) return;
        seen.add(chunkId);
      }
      const info = (): ChunkInfo => ({ id: chunkId, blob, startLine: startLine(r), endLine: endLine(r), language: language(r), symbol: fields().symbol(r), text: fields().text(r) });
      const indexed = () => this.heldRows?.get(chunkId) ?? indexRow(info(), fields().terms(r), quantize(fields().vector(r)));
      if (this.rowMemo) this.addIndexed(this.rowMemo.get(chunkId, blob, indexed));
      else this.addRow(info(), fields().terms(r), quantize(fields().vector(r)));
    };
  }

  /** Adds chunks held in memory, not read from a store (a fresh clone's early answer embeds a few files itself). */
  addRows(rows: Iterable<ChunkRow>): void {
    for (const { terms, vector, ...info } of rows) this.addRow(info, terms, quantize(vector));
  }

  /** Adds one chunk, its vector already in int8 with its scale. */
  protected addRow(chunk: ChunkInfo, terms: string, { vector, scale }: { vector: Int8Array; scale: number }): void {
    // A memo's postings are laid out from its rows alone: a row indexed here would go where they never look.
    if (this.table instanceof MemoPostings) throw new Error('a set of memo rows takes no row indexed apart');
    const { id, blob, startLine, endLine, language, symbol, text } = chunk;
    const i = this.place({ id, blob, startLine, endLine, language, symbol, text }, vector, scale);
    this.added(terms);
    this.index(i, terms, symbol, text);
  }

  /** Adds a chunk indexed before (row-memo.ts): the postings and length addRow would give it. Never in a set that is written. */
  private addIndexed(row: MemoRow): void {
    const i = this.place(row.info, row.vector, row.scale);
    this.lengths[i] = row.length;
    // A set whose every row comes indexed lays its postings out at once (memo-postings.ts).
    if (i === 0) this.postings = new MemoPostings(this.rowMemo!.vocabulary);
    if (this.postings instanceof MemoPostings) return this.postings.add(i, row);
    for (let k = 0; k < row.stems.length; k++) {
      const [docs, weights] = this.postings.lists.writable(row.stems[k]);
      docs.push(i);
      weights.push(row.tfs[k]);
    }
  }

  /**
   * Adds rows indexed before (a snapshot segment's, segment-index.ts): their lengths, postings and symbol table
   * taken as they are, chunk numbers counted from this set's size, and not a word of them indexed again.
   */
  protected addIndexedRows(rows: readonly (ChunkInfo & { terms: string; vector: Int8Array; scale: number })[], index: IndexedRows): void {
    if (this.table instanceof MemoPostings) throw new Error('a set of memo rows takes no row indexed apart');
    // Whatever was logged goes in first: each list keeps chunk order.
    const { lists } = this.postings;
    const offset = this.size;
    rows.forEach(({ terms, vector, scale, ...info }, r) => {
      this.lengths[this.place(info, vector, scale, false)] = index.lengths[r];
      this.added(terms);
    });
    lists.append(index.postings, offset);
    this.definitions.append(index.definitions, offset);
  }

  /** Takes in a chunk's info, vector and definition (unless told not to); its index. */
  private place(info: ChunkInfo, vector: Int8Array, scale: number, define = true): number {
    const i = this.info.length;
    this.info.push(info);
    let list = this.byBlob.get(info.blob);
    if (!list) this.byBlob.set(info.blob, (list = []));
    list.push(i);
    if ((i + 1) * this.dim > this.vectors.length) this.vectors = vectorsInRoom(this.vectors, this.dim) ?? this.grown();
    this.vectors.set(vector, i * this.dim);
    this.scales[i] = scale;
    const name = define && ownDefinition(info.symbol);
    if (name) this.definitions.writable(definitionKey(name))[0].push(i);
    return i;
  }

  /** The vectors in a new array twice the size (a restored set's, when the room after them is used up, copied whole). */
  private grown(): Int8Array {
    const grown = new Int8Array(Math.max(this.vectors.length * 2, this.dim * 1024));
    grown.set(this.vectors);
    return grown;
  }

  private index(i: number, terms: string, symbol: string, text: string): void {
    this.lengths[i] = this.log.add(i, terms, symbol, text);
  }

  /** Hears the words of each chunk added (a set kept on disk writes them with it). */
  protected added(_terms: string): void {}
}

/** Rows' lengths, postings and definitions, chunk numbers counted from the first row. */
export interface IndexedRows {
  lengths: ArrayLike<number>;
  postings: PackedLists;
  definitions: PackedLists;
}

/** Members and name words of a restored snapshot's chunks and blobs; undefined names for a blob it does not hold. */
export interface RestoredFacts {
  count: number;
  isMember(i: number): boolean;
  fileNames(blob: string): NameWords | undefined;
}

/** How names are looked up in the symbol table: `$ZodType`, `_private` and `zodtype` all find `ZodType`. */
export function definitionKey(name: string): string {
  return name.replace(/^[$_]+/, '').toLowerCase();
}
