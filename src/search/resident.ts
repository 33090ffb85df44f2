import type { RecordBatch } from 'apache-arrow';
import type { ChunkInfo, ChunkStore } from '../store/chunk-store.js';
import { breadcrumbName } from './rank/definitions.js';
import { stem } from './rank/path-words.js';
import { codeTerms } from './terms.js';

/** Extra weight of the words naming a chunk's own definition (`method handle` in `class Router > method handle`). */
const NAME_FIELD_WEIGHT = Number(process.env.OCRAG_X_NAME ?? 2);
const COMMENT_FIELD_WEIGHT = Number(process.env.OCRAG_X_COMMENT ?? 0);

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
  readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();
  private vectors: Int8Array;
  private scales: number[] = [];
  private readonly byBlob = new Map<string, number[]>();
  private readonly empty = new Set<string>();
  private readonly visible = new WeakMap<object, Int32Array>();
  private ids = new Map<string, number>();

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
  async ensure(store: ChunkStore, blobs: Iterable<string>): Promise<void> {
    const missing = [...new Set(blobs)].filter((b) => !this.byBlob.has(b) && !this.empty.has(b));
    if (!missing.length) return;
    const wanted = new Set(missing);
    for await (const batch of store.chunkColumns(missing, ['id', 'blob', 'start_line', 'end_line', 'language', 'symbol', 'text', 'terms', 'vector'])) this.add(batch, wanted);
    for (const b of missing) if (!this.byBlob.has(b)) this.empty.add(b);
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
    const tf = new Map<string, number>();
    let length = 0;
    for (const word of terms.split(' ')) {
      if (!word) continue;
      const w = stem(word);
      tf.set(w, (tf.get(w) ?? 0) + 1);
      length++;
    }
    const own = symbol.split(' > ').pop()!.replace(/^\S+\s+/, '');
    for (const word of codeTerms(own)) {
      const w = stem(word);
      tf.set(w, (tf.get(w) ?? 0) + NAME_FIELD_WEIGHT);
      length += NAME_FIELD_WEIGHT;
    }
    if (COMMENT_FIELD_WEIGHT) {
      for (const line of text.split('\n')) {
        if (!/^\s*(?:\/\/|#(?!\[)|\/\*|\*|"{3}|'{3})/.test(line)) continue;
        for (const word of codeTerms(line)) {
          const w = stem(word);
          tf.set(w, (tf.get(w) ?? 0) + COMMENT_FIELD_WEIGHT);
          length += COMMENT_FIELD_WEIGHT;
        }
      }
    }
    this.lengths[i] = length;
    for (const [w, n] of tf) {
      let p = this.postings.get(w);
      if (!p) this.postings.set(w, (p = { docs: [], tfs: [] }));
      p.docs.push(i);
      p.tfs.push(n);
    }
  }
}

const residents = new Map<string, ResidentChunks>();

/** One resident set per store and model for the life of the process (a server keeps it across queries). */
export function residentFor(key: string, dim: number): ResidentChunks {
  let r = residents.get(key);
  if (!r || r.dim !== dim) residents.set(key, (r = new ResidentChunks(dim)));
  return r;
}

/** How names are looked up in the symbol table: `$ZodType`, `_private` and `zodtype` all find `ZodType`. */
export function definitionKey(name: string): string {
  return name.replace(/^[$_]+/, '').toLowerCase();
}
