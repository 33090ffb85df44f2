import type { VisibleChunks } from '../../lexical.js';
import type { ResidentChunks } from '../../resident.js';
import type { CandidatePool } from '../../candidates.js';
import type { QueryInfo } from '../../query.js';
import type { ViewFile, SearchView } from '../../view.js';
import { stem } from '../../../text/stem.js';
import type { BoostSignal } from './signal.js';
import { bm25Idf } from '../../../text/bm25.js';
import type { NameWords } from '../../file-names.js';

const DEFAULTS = {
  /**
   * What a file is for, for questions on how the code works: its best chunks' meaning and the names it defines,
   * beside its path. Measured at 0.5 (off → on): architecture NDCG@10 0.851 → 0.864 on the benchmark, 0.837 → 0.844
   * on its Chinese queries, 0.773 → 0.798 on the dev set of other languages; overall 0.883 → 0.884, 0.861 → 0.861,
   * 0.815 → 0.818. Flat between 0.4 and 0.6; at 0.8 the benchmark's architecture gain holds and the dev set's falls.
   */
  fileTopic: true,
  fileTopicBoost: 0.5,
  /** How many of a file's best chunk cosines are averaged into its meaning (1: 0.882, 3: 0.884, 5: 0.884 on the benchmark). */
  fileTopicChunks: 3,
  /**
   * Share of the names a file defines (and its path words) against its chunks' meaning: 0 and 1 both measured worse
   * (0.883, 0.879). 0.6 against 0.5: benchmark 0.884 → 0.885 (semantic 0.859 → 0.860), Chinese 0.861, dev set 0.821,
   * long-query set 0.843 and docs hit@3 84.0 % unchanged; 0.4 cost the docs benchmark (82.7 %). Later, benchmark at
   * 0.6 / 0.65 / 0.7 / 0.72 / 0.75 / 0.8: 0.8909 / 0.8908 / 0.8914 / 0.8912 / 0.8917 / 0.8903, 0.7 the middle of the
   * plateau (architecture 0.875 → 0.877; Chinese 0.8647 → 0.8645, dev set 0.844 and long-query set 0.846 unchanged,
   * docs hit@3 84.0 %, MRR 0.759 → 0.766).
   */
  fileTopicNameShare: 0.7,
  /**
   * Only for questions about how the code works (`asksHowItWorks`). For every sentence it cost the descriptive
   * (semantic) queries more than it gave: 0.864 → 0.845 on the benchmark, 0.792 → 0.775 on the dev set.
   */
  fileTopicQuestionsOnly: true,
};

/** What a file is for: its best chunks' meaning and the names it defines, as evidence for each of its chunks. */
export const fileTopic: BoostSignal<typeof DEFAULTS> = {
  name: 'fileTopic',
  stage: 'boost',
  defaults: DEFAULTS,
  weight: (cfg) => cfg.fileTopicBoost,
  prepare: ({ q, cfg, view, candidates }) => {
    if (q.isName || (cfg.fileTopicQuestionsOnly && !q.asksHowItWorks)) return () => 0;
    const meaning = fileMeaning(candidates, view, cfg.fileTopicChunks);
    const names = nameEvidence(candidates.resident, candidates.visible, view, q);
    const share = cfg.fileTopicNameShare;
    return (hit) => (1 - share) * (meaning.get(hit.file.blob) ?? 0) + share * (names.get(hit.file.blob) ?? 0);
  },
};

/** Per blob, the mean of its `n` best chunk cosines, min-max normalised over the view's files (0..1). */
function fileMeaning(p: CandidatePool, view: SearchView, n: number): Map<string, number> {
  const best = new Map<string, number[]>();
  // Blob by blob, each one's visible chunks in the order `chunksOf` lists them: the visible chunks in their order,
  // without looking up each one's blob.
  for (const blob of view.byBlob.keys()) {
    let top: number[] | undefined;
    for (const i of p.resident.blobChunks(blob)) if (p.visible.mask[i]) top = keepBest((top ??= []), p.cosine[i], n);
    if (top) best.set(blob, top);
  }
  const mean = new Map<string, number>();
  let lo = Infinity;
  let hi = -Infinity;
  for (const [blob, top] of best) {
    // A file of one chunk is measured by it alone, not diluted by chunks it does not have.
    const m = top.reduce((a, b) => a + b, 0) / top.length;
    mean.set(blob, m);
    lo = Math.min(lo, m);
    hi = Math.max(hi, m);
  }
  for (const [blob, m] of mean) mean.set(blob, (m - lo) / (hi - lo || 1));
  return mean;
}

/** Keeps cosine `c` among the `n` best in `top`. */
function keepBest(top: number[], c: number, n: number): number[] {
  if (top.length < n) top.push(c);
  else {
    let low = 0;
    for (let j = 1; j < top.length; j++) if (top[j] < top[low]) low = j;
    if (c > top[low]) top[low] = c;
  }
  return top;
}

/** The view's file summaries (the names a file defines and its path words, stemmed) as BM25 needs them. */
interface FileSummaries {
  /** Each file (blob) with a summary: its name words, its path words, and the summary's length. */
  blobs: { blob: string; names: NameWords; path: Map<string, number>; length: number }[];
  files: number;
  meanLength: number;
  /** Per stemmed word, the files holding it: blob, how often, and the length of that file's summary; filled as queries ask. */
  postings: Map<string, { blob: string; tf: number; length: number }[]>;
}

/**
 * Built once per visible set (itself one per view: `ResidentChunks.chunksOf` keys it by the view); a word's
 * posting when a query first asks for it, so a one-shot search builds only its own words' (all of them were most of
 * the summaries' cost).
 */
const summaries = new WeakMap<VisibleChunks, FileSummaries>();

/**
 * BM25 of the query's words over file summaries (the names a file defines and its path words), divided by the
 * best: a file named and made of the query's concept, not one that only mentions it.
 */
function nameEvidence(resident: ResidentChunks, visible: VisibleChunks, view: SearchView, q: QueryInfo): Map<string, number> {
  const s = summariesOf(resident, visible, view);
  const k1 = 1.2;
  const b = 0.75;
  const scores = new Map<string, number>();
  for (const term of new Set(q.keywords.map(stem))) {
    const posting = postingOf(s, term);
    if (!posting.length) continue;
    const df = posting.length;
    const idf = bm25Idf(s.files, df);
    for (const { blob, tf, length } of posting) scores.set(blob, (scores.get(blob) ?? 0) + (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / s.meanLength)));
  }
  let top = 0;
  for (const v of scores.values()) top = Math.max(top, v);
  top ||= 1;
  for (const [blob, v] of scores) scores.set(blob, v / top);
  return scores;
}

function postingOf(s: FileSummaries, term: string): { blob: string; tf: number; length: number }[] {
  let posting = s.postings.get(term);
  if (!posting) {
    posting = [];
    for (const { blob, names, path, length } of s.blobs) {
      const tf = (names.get(term) ?? 0) + (path.get(term) ?? 0);
      if (tf > 0) posting.push({ blob, tf, length });
    }
    s.postings.set(term, posting);
  }
  return posting;
}

function summariesOf(resident: ResidentChunks, visible: VisibleChunks, view: SearchView): FileSummaries {
  let s = summaries.get(visible);
  if (s) return s;
  const blobs: FileSummaries['blobs'] = [];
  let total = 0;
  // The visible chunks are exactly the view's blobs' chunks held here that are not members (`chunksOf`): their
  // names, per blob, are what the set keeps (file-names.ts). The path words are those of every path of the blob.
  for (const [blob, files] of view.byBlob) {
    const names = resident.fileNames(blob);
    const path = new Map<string, number>();
    for (const file of files) for (const w of pathWordsOf(file)) {
      const st = stem(w);
      path.set(st, (path.get(st) ?? 0) + 1);
    }
    if (!names.size && !path.size) continue;
    let length = 0;
    for (const tf of names.values()) length += tf;
    for (const tf of path.values()) length += tf;
    total += length;
    blobs.push({ blob, names, path, length });
  }
  s = { blobs, files: blobs.length, meanLength: blobs.length ? total / blobs.length : 1, postings: new Map() };
  summaries.set(visible, s);
  return s;
}

function pathWordsOf(file: ViewFile): string[] {
  return [...file.stemWords, ...(file.dirWords[0] ?? [])];
}
