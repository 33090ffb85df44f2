import { stem } from '../text/stem.js';
import type { NumberList } from './postings.js';
import type { ResidentChunks } from './resident.js';
import { bm25Idf } from '../text/bm25.js';

/** BM25 term-frequency saturation and length normalisation. */
export interface Bm25Params {
  k1: number;
  b: number;
}

const STANDARD: Bm25Params = { k1: 1.2, b: 0.75 };

/** The chunks one search may see, as resident indices plus a membership mask, and their mean length. */
export interface VisibleChunks {
  chunks: Int32Array;
  mask: Uint8Array;
  meanLength: number;
  /** Blob → summed length of its chunks, and the mean over blobs: files as documents. */
  fileLength: Map<string, number>;
  meanFileLength: number;
}

const cache = new WeakMap<Int32Array, VisibleChunks>();

export function visibleChunks(resident: ResidentChunks, chunks: Int32Array): VisibleChunks {
  let v = cache.get(chunks);
  if (!v) {
    const mask = new Uint8Array(resident.size);
    const fileLength = new Map<string, number>();
    let total = 0;
    for (const i of chunks) {
      mask[i] = 1;
      total += resident.lengths[i];
      const blob = resident.info[i].blob;
      fileLength.set(blob, (fileLength.get(blob) ?? 0) + resident.lengths[i]);
    }
    const meanLength = chunks.length ? total / chunks.length : 1;
    v = { chunks, mask, meanLength, fileLength, meanFileLength: fileLength.size ? total / fileLength.size : 1 };
    cache.set(chunks, v);
  }
  return v;
}

/** Per view searched, each stem's count of visible chunks holding it: the same for every query while the view stands. */
const visibleCounts = new WeakMap<VisibleChunks, Map<string, number>>();

/** How many of a stem's chunks (`docs`, its posting's) are visible. */
export function visibleCount(visible: VisibleChunks, stemmed: string, docs: NumberList): number {
  let counts = visibleCounts.get(visible);
  if (!counts) visibleCounts.set(visible, (counts = new Map()));
  let df = counts.get(stemmed);
  if (df === undefined) {
    df = 0;
    for (let j = 0; j < docs.length; j++) if (visible.mask[docs[j]]) df++;
    counts.set(stemmed, df);
  }
  return df;
}

/**
 * BM25 over exactly the visible chunks: document frequencies and lengths are those of the branch (and glob)
 * being searched, not of everything the shared store holds. Returns chunk index → score, only for matches.
 */
export function bm25(resident: ResidentChunks, visible: VisibleChunks, words: string[], { k1, b }: Bm25Params = STANDARD, weights?: ReadonlyMap<string, number>): Map<number, number> {
  const scores = new Map<number, number>();
  const n = visible.chunks.length;
  for (const [word, weight] of stemmedWeights(words, weights)) {
    const posting = resident.postings.get(word);
    if (!posting) continue;
    const df = visibleCount(visible, word, posting.docs);
    if (!df) continue;
    const idf = bm25Idf(n, df);
    for (let j = 0; j < posting.docs.length; j++) {
      const d = posting.docs[j];
      if (!visible.mask[d]) continue;
      const tf = posting.tfs[j];
      const norm = tf + k1 * (1 - b + (b * resident.lengths[d]) / visible.meanLength);
      scores.set(d, (scores.get(d) ?? 0) + (weight * idf * tf * (k1 + 1)) / norm);
    }
  }
  return scores;
}

/** Each distinct stem once, with the largest weight any of its words has (1 unless `weights` says less). */
function stemmedWeights(words: string[], weights?: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const word of words) {
    const s = stem(word);
    out.set(s, Math.max(out.get(s) ?? 0, weights?.get(word) ?? 1));
  }
  return out;
}

/** BM25 with whole files as documents (a file's words are those of all its chunks): blob → score. */
export function fileBm25(resident: ResidentChunks, visible: VisibleChunks, words: string[], { k1, b }: Bm25Params = STANDARD, weights?: ReadonlyMap<string, number>): Map<string, number> {
  const scores = new Map<string, number>();
  const n = visible.fileLength.size;
  for (const [word, weight] of stemmedWeights(words, weights)) {
    const tfs = fileTermCounts(resident, visible, word);
    if (!tfs.size) continue;
    const idf = bm25Idf(n, tfs.size);
    for (const [blob, tf] of tfs) {
      const norm = tf + k1 * (1 - b + (b * visible.fileLength.get(blob)!) / visible.meanFileLength);
      scores.set(blob, (scores.get(blob) ?? 0) + (weight * idf * tf * (k1 + 1)) / norm);
    }
  }
  return scores;
}

/** How often a stemmed word occurs in each file's visible chunks: blob → count (files without it absent). */
export function fileTermCounts(resident: ResidentChunks, visible: VisibleChunks, stemmed: string): Map<string, number> {
  const tfs = new Map<string, number>();
  const posting = resident.postings.get(stemmed);
  if (!posting) return tfs;
  for (let j = 0; j < posting.docs.length; j++) {
    const d = posting.docs[j];
    if (!visible.mask[d]) continue;
    const blob = resident.info[d].blob;
    tfs.set(blob, (tfs.get(blob) ?? 0) + posting.tfs[j]);
  }
  return tfs;
}

/** The `n` best entries of a score list, best first (a bounded selection: lists can be a whole branch long). */
export function topEntries(scores: Iterable<[number, number]> | ReadonlyMap<number, number>, n: number): [number, number][] {
  const heap: [number, number][] = [];
  // A map is visited without an entry made for each of its (thousands of) scores: the same entries, in the same order.
  if (scores instanceof Map) scores.forEach((score: number, index: number) => offer(heap, index, score, n));
  else for (const [index, score] of scores as Iterable<[number, number]>) offer(heap, index, score, n);
  return heap.sort(bestFirst);
}

/**
 * `topEntries` of `indices[j]` scored `scores[j]`, without an entry made for each (a view's every cosine): the
 * same heap, fed in the same order, so the same answer.
 */
export function topOfLists(indices: Int32Array, scores: Float32Array, n: number): [number, number][] {
  const heap: [number, number][] = [];
  for (let j = 0; j < indices.length; j++) {
    // Once full, most of a view's scores are below the root: turned away here as offer would (a call each was
    // ~5% of a tokio search in the server).
    if (n > 0 && heap.length === n) {
      const score = scores[j];
      const root = heap[0];
      if (score < root[1] || (score === root[1] && indices[j] > root[0])) continue;
    }
    offer(heap, indices[j], scores[j], n);
  }
  return heap.sort(bestFirst);
}

const bestFirst = (a: [number, number], b: [number, number]) => b[1] - a[1] || a[0] - b[0];
const worse = (a: [number, number], b: [number, number]) => a[1] < b[1] || (a[1] === b[1] && a[0] > b[0]);

/** Keeps (index, score) in a heap of the `n` best, its worst at the root. */
function offer(heap: [number, number][], index: number, score: number, n: number): void {
  if (heap.length < n) {
    heap.push([index, score]);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
    return;
  }
  // worse(heap[0], [index, score]) without the pair made first.
  if (n <= 0 || !(heap[0][1] < score || (heap[0][1] === score && heap[0][0] > index))) return;
  heap[0] = [index, score];
  for (let i = 0; ; ) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && worse(heap[l], heap[m])) m = l;
    if (r < heap.length && worse(heap[r], heap[m])) m = r;
    if (m === i) break;
    [heap[i], heap[m]] = [heap[m], heap[i]];
    i = m;
  }
}
