import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ChunkBatch, ChunkInfo, ChunkRow } from '../store/contract.js';
import type { StoreHandle } from '../store/store-handle.js';
import { stem } from '../text/stem.js';
import { BoundedMemo } from '../util/bounded-memo.js';
import { memberIndices } from './members.js';
import { ListTable, PostingTable, type NumberList } from './postings.js';
import { readSnapshot, writeSnapshot, type ResidentState, type RestoredState } from './resident-snapshot.js';
import { SectionDamageError } from './sectioned-file.js';
import { ownDefinition } from '../text/breadcrumb.js';
import { forEachIndexedWord } from './indexed-words.js';
import { readFields } from '../store/chunk-batch.js';
import { CHUNK_FIELDS } from '../store/chunk-columns.js';

/**
 * The chunks of the blobs searched so far, held in memory: info, text, an int8 copy of each vector and postings
 * of identifier-aware words. A blob's rows never change (chunk ids are content-addressed), so each blob loads once
 * and stays; searching is then exact over precisely the view's chunks, with no window to grow and no index to ask.
 */
export class ResidentChunks {
  readonly info: ChunkInfo[] = [];
  /** Lexical length of each chunk (words, name words weighted), for BM25 length normalisation. */
  readonly lengths: number[] = [];
  /** Definition name (lower-case, without `$`/`_` prefixes) → chunks whose own breadcrumb defines it: the symbol table. */
  private definitions = new ListTable(['int32']);
  /** Word → chunk indices and term frequencies. */
  postings = new PostingTable();
  /** Word as it appears → its posting's [docs, tfs] lists, growable. */
  private readonly byWord = new BoundedMemo<string, number[][]>(500_000);
  private readonly scratch = new Map<number[][], number>();
  private vectors: Int8Array;
  private scales: number[] = [];
  private readonly byBlob = new Map<string, number[]>();
  private readonly empty = new Set<string>();
  private readonly visible = new WeakMap<object, Int32Array>();
  /** Blob → its member chunks, worked out when first asked (a blob's rows never change once loaded whole). */
  private readonly membersByBlob = new Map<string, Set<number>>();
  private ids = new Map<string, number>();
  private loading: Promise<void> = Promise.resolve();

  constructor(readonly dim: number) {
    this.vectors = new Int8Array(dim * 1024);
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

  get size(): number {
    return this.info.length;
  }

  /** Loads the rows of blobs not seen yet. */
  ensure(store: StoreHandle, blobs: Iterable<string>): Promise<void> {
    const wanted = [...blobs];
    // One load at a time: concurrent searches of one view must not both add the same blobs.
    const run = this.loading.then(() => this.load(store, wanted));
    this.loading = run.catch((e) => {
      if (e instanceof SectionDamageError) this.discard();
      this.failed = true;
    });
    return run;
  }

  /** A load failed (a damaged row, a damaged snapshot), maybe with part of a blob's rows added: residentFor makes a new set. */
  failed = false;

  /** Gives up this set and its snapshot file (a text in it failed its checksum): the next set is built from the store. */
  discard(): void {
    this.failed = true;
    if (this.snapshotFile) fs.rmSync(this.snapshotFile, { force: true });
  }

  private async load(store: StoreHandle, blobs: string[]): Promise<void> {
    this.restoreSnapshot();
    const missing = [...new Set(blobs)].filter((b) => !this.byBlob.has(b) && !this.empty.has(b));
    if (!missing.length) return;
    const wanted = new Set(missing);
    for await (const batch of (await store.get()).chunkColumns(missing, CHUNK_FIELDS)) this.add(batch, wanted);
    for (const b of missing) if (!this.byBlob.has(b)) this.empty.add(b);
    if (this.snapshotFile) {
      // Restored texts are still read from the file about to be replaced: take them in first.
      this.detachSnapshot();
      writeSnapshot(this.snapshotFile, this.dim, this.state());
    }
  }

  /** Where this set is kept between processes, so a one-shot CLI search does not rebuild it from the store. */
  snapshotFile: string | null = null;
  private restored = false;

  /** Takes in the snapshot, once, before anything is added (loading does it; so does counting a view). */
  restoreSnapshot(): void {
    if (!this.snapshotFile || this.restored) return;
    this.restored = true;
    if (this.size === 0) this.restore(readSnapshot(this.snapshotFile, this.dim));
  }

  /** The chunks of a blob held here; undefined for a blob never loaded (the store knows its count). */
  chunkCountOf(blob: string): number | undefined {
    return this.byBlob.get(blob)?.length ?? (this.empty.has(blob) ? 0 : undefined);
  }

  private state(): ResidentState {
    const { info, lengths, scales, definitions, postings, byBlob, empty } = this;
    return { info, lengths, scales, definitions, postings, byBlob, empty, vectors: this.vectors.subarray(0, info.length * this.dim) };
  }

  /** Reads the rest of the restored snapshot into memory and closes it (a no-op when nothing was restored). */
  detachSnapshot: () => void = () => undefined;

  private restore(restored: RestoredState | null): void {
    if (!restored) return;
    const snap = restored.state;
    this.detachSnapshot = restored.detach;
    // Loops, not a spread push: that passes every element as an argument and overflows the stack on big sets.
    for (const info of snap.info) this.info.push(info);
    for (const length of snap.lengths) this.lengths.push(length);
    this.definitions = snap.definitions;
    this.postings = snap.postings;
    // A view into the file's bytes, exactly full: the first chunk added grows it into an array of its own.
    this.vectors = snap.vectors;
    this.scales = snap.scales;
    for (const [k, v] of snap.byBlob) this.byBlob.set(k, v);
    for (const b of snap.empty) this.empty.add(b);
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
    const blob = this.info[i].blob;
    let members = this.membersByBlob.get(blob);
    if (!members) this.membersByBlob.set(blob, (members = new Set(memberIndices(this.info, this.byBlob.get(blob) ?? []))));
    return members.has(i);
  }

  /** Cosine of every listed chunk to a unit query vector (the stored vectors are unit length). */
  cosines(query: Float32Array, chunks: Int32Array): Float32Array {
    const out = new Float32Array(chunks.length);
    const dim = this.dim;
    const v = this.vectors;
    const q = Float32Array.from(query);
    for (let j = 0; j < chunks.length; j++) {
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

  /**
   * Adds the rows of a batch whose blob is wanted (a set may hold only some of a blob's chunks: one query's
   * candidates) and whose id is not in `seen`, which then records them.
   */
  add(batch: ChunkBatch, wanted: Set<string>, seen?: Set<string>): void {
    const { id, blob: blobOf, startLine, endLine, language, symbol, text, terms, vector } = readFields(batch, CHUNK_FIELDS);
    for (let r = 0; r < batch.numRows; r++) {
      const blob = blobOf(r);
      if (!wanted.has(blob)) continue;
      const chunkId = id(r);
      if (seen) {
        if (seen.has(chunkId)) continue;
        seen.add(chunkId);
      }
      this.addChunk({ id: chunkId, blob, startLine: startLine(r), endLine: endLine(r), language: language(r), symbol: symbol(r), text: text(r) }, terms(r), vector(r));
    }
  }

  /** Adds chunks held in memory, not read from a store (a fresh clone's early answer embeds a few files itself). */
  addRows(rows: Iterable<ChunkRow>): void {
    for (const { terms, vector, ...info } of rows) this.addChunk(info, terms, vector);
  }

  private addChunk(info: ChunkInfo, terms: string, vector: Float32Array): void {
    const i = this.info.length;
    this.info.push(info);
    let list = this.byBlob.get(info.blob);
    if (!list) this.byBlob.set(info.blob, (list = []));
    list.push(i);
    this.storeVector(i, vector);
    this.index(i, terms, info.symbol, info.text);
    const name = ownDefinition(info.symbol);
    if (name) {
      this.definitions.writable(definitionKey(name))[0].push(i);
    }
  }

  private storeVector(i: number, vector: Float32Array): void {
    if ((i + 1) * this.dim > this.vectors.length) {
      const grown = new Int8Array(Math.max(this.vectors.length * 2, this.dim * 1024));
      grown.set(this.vectors);
      this.vectors = grown;
    }
    let max = 0;
    for (let d = 0; d < this.dim; d++) max = Math.max(max, Math.abs(vector[d]));
    const scale = max / 127 || 1;
    for (let d = 0; d < this.dim; d++) this.vectors[i * this.dim + d] = Math.round(vector[d] / scale);
    this.scales[i] = scale;
  }

  private index(i: number, terms: string, symbol: string, text: string): void {
    const tf = this.scratch;
    tf.clear();
    let length = 0;
    forEachIndexedWord(terms, symbol, text, (word, weight) => {
      const posting = this.postingOf(word);
      tf.set(posting, (tf.get(posting) ?? 0) + weight);
      length += weight;
    });
    this.lengths[i] = length;
    for (const [[docs, tfs], n] of tf) {
      docs.push(i);
      tfs.push(n);
    }
  }

  /** The posting list of a word as it appears in rows (memoised: stemming every occurrence would dominate loading). */
  private postingOf(word: string): number[][] {
    return this.byWord.get(word, this.writablePosting);
  }

  private readonly writablePosting = (word: string): number[][] => this.postings.lists.writable(stem(word));
}

const residents = new Map<string, ResidentChunks>();

/**
 * One resident set per store incarnation and model for the life of the process (a server keeps it across queries).
 * A new incarnation of the same store replaces the old set rather than piling up beside it.
 */
export function residentFor(key: string, dim: number, snapshotDir?: string): ResidentChunks {
  let r = residents.get(key);
  if (!r || r.dim !== dim || r.failed) {
    const dir = key.slice(0, key.indexOf('\n') + 1);
    for (const [other, set] of residents) {
      if (!other.startsWith(dir)) continue;
      residents.delete(other);
      try {
        // A search still running on the old set may read its texts: take them in, and let go of the file.
        set.detachSnapshot();
      } catch {
        // A damaged one: that search fails on it and starts afresh (candidates.ts).
      }
    }
    residents.set(key, (r = new ResidentChunks(dim)));
    // Keyed by store incarnation and model: a blob's rows never change within one, so the snapshot stays valid.
    if (snapshotDir) r.snapshotFile = snapshotFileFor(key, snapshotDir);
  }
  return r;
}

export function snapshotFileFor(key: string, snapshotDir: string): string {
  return path.join(snapshotDir, `${createHash('sha256').update(key).digest('hex').slice(0, 16)}.snap`);
}

/** How names are looked up in the symbol table: `$ZodType`, `_private` and `zodtype` all find `ZodType`. */
export function definitionKey(name: string): string {
  return name.replace(/^[$_]+/, '').toLowerCase();
}
