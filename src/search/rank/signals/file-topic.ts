import type { VisibleChunks } from '../../lexical.js';
import type { ResidentChunks } from '../../resident.js';
import type { CandidatePool } from '../../candidates.js';
import type { QueryInfo } from '../../query.js';
import type { ViewFile, SearchView } from '../../view.js';
import { parseBreadcrumb } from '../../../text/breadcrumb.js';
import { codeTerms } from '../../../text/terms.js';
import { stem } from '../../../text/stem.js';
import type { BoostSignal } from './signal.js';

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
   * long-query set 0.843 and docs hit@3 84.0 % unchanged; 0.4 cost the docs benchmark (82.7 %).
   */
  fileTopicNameShare: 0.6,
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
    const meaning = fileMeaning(candidates, cfg.fileTopicChunks);
    const names = nameEvidence(candidates.resident, candidates.visible, view, q);
    const share = cfg.fileTopicNameShare;
    return (hit) => (1 - share) * (meaning.get(hit.file.blob) ?? 0) + share * (names.get(hit.file.blob) ?? 0);
  },
};

/** Per blob, the mean of its `n` best chunk cosines, min-max normalised over the view's files (0..1). */
function fileMeaning(p: CandidatePool, n: number): Map<string, number> {
  const best = new Map<string, number[]>();
  for (const i of p.visible.chunks) {
    const blob = p.resident.info[i].blob;
    let top = best.get(blob);
    if (!top) best.set(blob, (top = []));
    const c = p.cosine[i];
    if (top.length < n) top.push(c);
    else {
      let low = 0;
      for (let j = 1; j < top.length; j++) if (top[j] < top[low]) low = j;
      if (c > top[low]) top[low] = c;
    }
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

/** Per blob: stemmed words of the names it defines and of its path → how often. */
interface FileSummaries {
  words: Map<string, Map<string, number>>;
  df: Map<string, number>;
  meanLength: number;
}

const summaries = new WeakMap<VisibleChunks, Map<SearchView['files'], FileSummaries>>();

/**
 * BM25 of the query's words over file summaries (the names a file defines and its path words), divided by the
 * best: a file named and made of the query's concept, not one that only mentions it.
 */
function nameEvidence(resident: ResidentChunks, visible: VisibleChunks, view: SearchView, q: QueryInfo): Map<string, number> {
  const s = summariesOf(resident, visible, view);
  const n = s.words.size;
  const k1 = 1.2;
  const b = 0.75;
  const scores = new Map<string, number>();
  for (const term of new Set(q.keywords.map(stem))) {
    const df = s.df.get(term);
    if (!df) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (const [blob, words] of s.words) {
      const tf = words.get(term);
      if (!tf) continue;
      const length = words.get(LENGTH)!;
      scores.set(blob, (scores.get(blob) ?? 0) + (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / s.meanLength)));
    }
  }
  const top = Math.max(0, ...scores.values()) || 1;
  for (const [blob, v] of scores) scores.set(blob, v / top);
  return scores;
}

const LENGTH = '\u0000length';

function summariesOf(resident: ResidentChunks, visible: VisibleChunks, view: SearchView): FileSummaries {
  let byFiles = summaries.get(visible);
  if (!byFiles) summaries.set(visible, (byFiles = new Map()));
  let s = byFiles.get(view.files);
  if (s) return s;
  const words = new Map<string, Map<string, number>>();
  const add = (blob: string, word: string) => {
    let bag = words.get(blob);
    if (!bag) words.set(blob, (bag = new Map([[LENGTH, 0]])));
    const st = stem(word);
    bag.set(st, (bag.get(st) ?? 0) + 1);
    bag.set(LENGTH, bag.get(LENGTH)! + 1);
  };
  const named = new Map<string, Set<string>>();
  for (const i of visible.chunks) {
    const { blob, symbol } = resident.info[i];
    let seen = named.get(blob);
    if (!seen) named.set(blob, (seen = new Set()));
    for (const e of parseBreadcrumb(symbol)) {
      if (!e.name || seen.has(e.name)) continue;
      seen.add(e.name);
      for (const w of codeTerms(e.name)) add(blob, w);
    }
  }
  for (const file of view.files) for (const w of pathWordsOf(file)) add(file.blob, w);
  const df = new Map<string, number>();
  let total = 0;
  for (const bag of words.values()) {
    total += bag.get(LENGTH)!;
    for (const w of bag.keys()) if (w !== LENGTH) df.set(w, (df.get(w) ?? 0) + 1);
  }
  s = { words, df, meanLength: words.size ? total / words.size : 1 };
  byFiles.set(view.files, s);
  return s;
}

function pathWordsOf(file: ViewFile): string[] {
  return [...file.stemWords, ...(file.dirWords[0] ?? [])];
}
