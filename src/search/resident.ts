import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import type { RecordBatch } from 'apache-arrow';
import type { ChunkInfo, ChunkStore } from '../store/chunk-store.js';
import { breadcrumbName } from './rank/definitions.js';
import { stem } from './rank/path-words.js';
import { codeTerms } from './terms.js';

/**
 * BM25F-style field weights on top of the words of breadcrumb and text: the words naming a chunk's own definition
 * (`handle` in `class Router > method handle`) and the words of its comments and docstrings (prose, as queries
 * are). Measured on the benchmark: flat between 3 and 6 for names, best near 0.5 for comments.
 */
const NAME_FIELD_WEIGHT = 4;
const COMMENT_FIELD_WEIGHT = 0.5;
const COMMENT_LINE = /^\s*(?:\/\/|#(?!\[)|\/\*|\*|"{3}|'{3})/;

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
  readonly definitions = new Map<string, number[]>();
  /** Word → chunk indices and term frequencies. */
  readonly postings = new Map<string, Posting>();
  private readonly byWord = new Map<string, Posting>();
  private readonly scratch = new Map<Posting, number>();
  private vectors: Int8Array;
  private scales: number[] = [];
  private readonly byBlob = new Map<string, number[]>();
  private readonly empty = new Set<string>();
  private readonly visible = new WeakMap<object, Int32Array>();
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

  get size(): number {
    return this.info.length;
  }

  /** Loads the rows of blobs not seen yet. */
  ensure(store: ChunkStore, blobs: Iterable<string>): Promise<void> {
    const wanted = [...blobs];
    // One load at a time: concurrent searches of one view must not both add the same blobs.
    const run = this.loading.then(() => this.load(store, wanted));
    this.loading = run.catch(() => undefined);
    return run;
  }

  private async load(store: ChunkStore, blobs: string[]): Promise<void> {
    if (this.snapshotFile && !this.restored) {
      this.restored = true;
      if (this.size === 0) this.restore(readSnapshot(this.snapshotFile, this.dim));
    }
    const missing = [...new Set(blobs)].filter((b) => !this.byBlob.has(b) && !this.empty.has(b));
    if (!missing.length) return;
    const wanted = new Set(missing);
    for await (const batch of store.chunkColumns(missing, ['id', 'blob', 'start_line', 'end_line', 'language', 'symbol', 'text', 'terms', 'vector'])) this.add(batch, wanted);
    for (const b of missing) if (!this.byBlob.has(b)) this.empty.add(b);
    if (this.snapshotFile) writeSnapshot(this.snapshotFile, this.snapshot());
  }

  /** Where this set is kept between processes, so a one-shot CLI search does not rebuild it from the store. */
  snapshotFile: string | null = null;
  private restored = false;

  private snapshot(): Snapshot {
    return {
      version: SNAPSHOT_VERSION,
      dim: this.dim,
      info: this.info,
      lengths: this.lengths,
      definitions: this.definitions,
      postings: this.postings,
      vectors: this.vectors.subarray(0, this.info.length * this.dim),
      scales: this.scales,
      byBlob: this.byBlob,
      empty: [...this.empty],
    };
  }

  private restore(snap: Snapshot | null): void {
    if (!snap) return;
    // A spread push passes every element as an argument and overflows the stack past ~120k chunks.
    for (const info of snap.info) this.info.push(info);
    for (const length of snap.lengths) this.lengths.push(length);
    for (const [k, v] of snap.definitions) this.definitions.set(k, v);
    for (const [k, v] of snap.postings) this.postings.set(k, v);
    this.vectors = new Int8Array(Math.max(snap.vectors.length * 2, this.dim * 1024));
    this.vectors.set(snap.vectors);
    this.scales = snap.scales;
    for (const [k, v] of snap.byBlob) this.byBlob.set(k, v);
    for (const b of snap.empty) this.empty.add(b);
  }

  /** Indices of the chunks of these blobs, computed once per key object (a view). */
  chunksOf(key: object, blobs: Iterable<string>): Int32Array {
    let idx = this.visible.get(key);
    if (!idx) {
      const out: number[] = [];
      for (const b of blobs) for (const i of this.byBlob.get(b) ?? []) out.push(i);
      idx = Int32Array.from(out);
      this.visible.set(key, idx);
    }
    return idx;
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

  private add(batch: RecordBatch, wanted: Set<string>): void {
    const col = (name: string) => batch.getChild(name)!;
    const [ids, blobs, starts, ends, languages, symbols, texts, terms, vectors] = ['id', 'blob', 'start_line', 'end_line', 'language', 'symbol', 'text', 'terms', 'vector'].map(col);
    const list = vectors.data[0];
    const flat = list.children[0].values as Float32Array;
    const offset = list.children[0].offset + list.offset * this.dim;
    for (let r = 0; r < batch.numRows; r++) {
      const blob = blobs.get(r) as string;
      if (!wanted.has(blob)) continue;
      const i = this.info.length;
      const info: ChunkInfo = { id: ids.get(r), blob, startLine: starts.get(r), endLine: ends.get(r), language: languages.get(r), symbol: symbols.get(r), text: texts.get(r) };
      this.info.push(info);
      let list = this.byBlob.get(blob);
      if (!list) this.byBlob.set(blob, (list = []));
      list.push(i);
      this.storeVector(i, flat.subarray(offset + r * this.dim, offset + (r + 1) * this.dim));
      this.index(i, terms.get(r) as string, info.symbol, info.text);
      const name = info.symbol ? breadcrumbName(info.symbol.split(' > ').pop()!) : null;
      if (name) {
        const key = definitionKey(name);
        const defs = this.definitions.get(key);
        if (defs) defs.push(i);
        else this.definitions.set(key, [i]);
      }
    }
  }

  private storeVector(i: number, vector: Float32Array): void {
    if ((i + 1) * this.dim > this.vectors.length) {
      const grown = new Int8Array(this.vectors.length * 2);
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
    const count = (word: string, weight: number) => {
      const posting = this.postingOf(word);
      tf.set(posting, (tf.get(posting) ?? 0) + weight);
      length += weight;
    };
    for (const word of terms.split(' ')) if (word) count(word, 1);
    for (const word of codeTerms(symbol.split(' > ').pop()!.replace(/^\S+\s+/, ''))) count(word, NAME_FIELD_WEIGHT);
    // Comments are prose: plain lower-case words, no identifier splitting needed.
    for (const line of text.split('\n')) {
      if (!COMMENT_LINE.test(line)) continue;
      for (const word of line.toLowerCase().split(/[^a-z0-9_]+/)) if (word.length > 1) count(word, COMMENT_FIELD_WEIGHT);
    }
    this.lengths[i] = length;
    for (const [posting, n] of tf) {
      posting.docs.push(i);
      posting.tfs.push(n);
    }
  }

  /** The posting list of a word as it appears in rows (memoised: stemming every occurrence would dominate loading). */
  private postingOf(word: string): Posting {
    let p = this.byWord.get(word);
    if (!p) {
      const key = stem(word);
      p = this.postings.get(key);
      if (!p) this.postings.set(key, (p = { docs: [], tfs: [] }));
      if (this.byWord.size > 500_000) this.byWord.clear();
      this.byWord.set(word, p);
    }
    return p;
  }
}

const SNAPSHOT_VERSION = 1;

interface Snapshot {
  version: number;
  dim: number;
  info: ChunkInfo[];
  lengths: number[];
  definitions: Map<string, number[]>;
  postings: Map<string, Posting>;
  vectors: Int8Array;
  scales: number[];
  byBlob: Map<string, number[]>;
  empty: string[];
}

/** A snapshot that is missing, torn or of another layout is ignored: the set is rebuilt from the store. */
function readSnapshot(file: string, dim: number): Snapshot | null {
  try {
    const snap = v8.deserialize(fs.readFileSync(file)) as Snapshot;
    return snap.version === SNAPSHOT_VERSION && snap.dim === dim && snap.info.length * dim === snap.vectors.length ? snap : null;
  } catch {
    return null;
  }
}

function writeSnapshot(file: string, snap: Snapshot): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, v8.serialize(snap));
    fs.renameSync(tmp, file);
  } catch {
    // A cache: failing to keep it costs time on the next process, never a wrong answer.
  }
}

interface Posting {
  docs: number[];
  tfs: number[];
}

const residents = new Map<string, ResidentChunks>();

/**
 * One resident set per store incarnation and model for the life of the process (a server keeps it across queries).
 * A new incarnation of the same store replaces the old set rather than piling up beside it.
 */
export function residentFor(key: string, dim: number, snapshotDir?: string): ResidentChunks {
  let r = residents.get(key);
  if (!r || r.dim !== dim) {
    const dir = key.slice(0, key.indexOf('\n') + 1);
    for (const other of residents.keys()) if (other.startsWith(dir)) residents.delete(other);
    residents.set(key, (r = new ResidentChunks(dim)));
    // Keyed by store incarnation and model: a blob's rows never change within one, so the snapshot stays valid.
    if (snapshotDir) r.snapshotFile = path.join(snapshotDir, `${createHash('sha256').update(key).digest('hex').slice(0, 16)}.v8`);
  }
  return r;
}

/** How names are looked up in the symbol table: `$ZodType`, `_private` and `zodtype` all find `ZodType`. */
export function definitionKey(name: string): string {
  return name.replace(/^[$_]+/, '').toLowerCase();
}
