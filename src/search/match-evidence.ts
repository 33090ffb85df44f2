import { stem } from '../text/stem.js';
import type { CandidatePool } from './candidates.js';
import { visibleCount } from './lexical.js';
import type { NumberList } from './postings.js';
import type { QueryInfo } from './query.js';
import type { Hit } from './rank/hit.js';
import { bm25Idf } from '../text/bm25.js';

/**
 * What the relevance rule (relevance.ts) reads of one ranked answer: how rare each of the query's words is in the
 * view searched, which of them each hit holds, and whether the query names something the view defines. Apart
 * from the ranking: it decides only whether an answer is given, never its order.
 */
export interface MatchEvidence {
  /** Each word's weight: its rarity (BM25's idf over the visible chunks) times its term weight. */
  weights: number[];
  /** Per hit (in the hits' order), whether its chunk holds each word (same order as `weights`). */
  found: boolean[][];
  /** Per hit, the cosine between query and chunk vectors. */
  cosines: number[];
  /** The query names an identifier the view defines (`parseArgs`, `Router.handle`). */
  namesDefinition: boolean;
  /** The weight of a word the view never holds (the most a word can weigh in this view: it grows with the view's size). */
  absentWeight: number;
}

/**
 * Rarity is judged as in a view of at least this many chunks. In a smaller one every word a chunk holds is common
 * (a one-file repository's only chunk holds all of its words), so the words a question shares with it weighed almost
 * nothing against those it lacks, and "how do we verify a user's password" got "no good match" from the one file
 * that checks passwords. The benchmark's smallest view has 94 chunks (redux), so no measured answer changes.
 */
const RARITY_VIEW_CHUNKS = 64;

export const NO_EVIDENCE: MatchEvidence = { weights: [], found: [], cosines: [], namesDefinition: false, absentWeight: 1 };

/**
 * A query's words as the rule counts them: a short query's concepts (an English word with its other spellings, a
 * Chinese word's bigrams with its English senses: any one found finds the word), else each distinct term.
 */
function wordsOf(q: Pick<QueryInfo, 'terms' | 'termWeights' | 'concepts'>): { terms: string[]; weight: number }[] {
  if (q.concepts.length) return q.concepts.map((terms) => ({ terms, weight: 1 }));
  const byStem = new Map<string, number>();
  for (const t of q.terms) byStem.set(stem(t), Math.max(byStem.get(stem(t)) ?? 0, q.termWeights.get(t) ?? 1));
  return [...byStem].map(([s, weight]) => ({ terms: [s], weight }));
}

/**
 * A word the view never holds is as rare as a word can be (an off-topic question's words count fully against
 * it); a word spelled several ways is as rare as its commonest spelling. Over a view of a store too large for
 * memory, rarities are those among the chunks the store's indexes returned: an approximation.
 */
export function matchEvidence(pool: Pick<CandidatePool, 'resident' | 'visible' | 'defined'>, q: Pick<QueryInfo, 'terms' | 'termWeights' | 'concepts'>, hits: readonly Hit[]): MatchEvidence {
  const { resident, visible } = pool;
  const n = Math.max(visible.chunks.length, RARITY_VIEW_CHUNKS);
  const idf = (df: number) => bm25Idf(n, df);
  const wanted = new Set(hits.map((h) => h.candidate.index));
  const rarity = new Map<string, { idf: number; holders: Set<number> }>();
  const termRarity = (term: string) => {
    const s = stem(term);
    let r = rarity.get(s);
    if (!r) {
      const docs = resident.postings.get(s)?.docs ?? [];
      const holders = new Set<number>();
      for (const d of wanted) if (visible.mask[d] && holds(docs, d)) holders.add(d);
      rarity.set(s, (r = { idf: idf(visibleCount(visible, s, docs)), holders }));
    }
    return r;
  };
  const weights: number[] = [];
  const found = hits.map(() => [] as boolean[]);
  for (const word of wordsOf(q)) {
    const spellings = word.terms.map((t) => ({ ...termRarity(t), weight: q.termWeights.get(t) ?? word.weight }));
    weights.push(Math.min(...spellings.map((s) => s.idf * s.weight)));
    hits.forEach((h, i) => found[i]!.push(spellings.some((s) => s.holders.has(h.candidate.index))));
  }
  return { weights, found, cosines: hits.map((h) => h.candidate.cosine), namesDefinition: pool.defined.size > 0, absentWeight: idf(0) };
}

/** Posting lists seen in ascending order, by their length then (a growing list is looked at again). */
const ascending = new WeakMap<object, { length: number; sorted: boolean }>();

/** Whether a posting list holds chunk `d`: by halving when the list is in ascending order (rows are added so), else by looking at each. */
function holds(docs: NumberList, d: number): boolean {
  let order = ascending.get(docs);
  if (order?.length !== docs.length) {
    let sorted = true;
    for (let j = 1; j < docs.length && sorted; j++) sorted = docs[j - 1] < docs[j];
    ascending.set(docs, (order = { length: docs.length, sorted }));
  }
  if (!order.sorted) {
    for (let j = 0; j < docs.length; j++) if (docs[j] === d) return true;
    return false;
  }
  let lo = 0;
  let hi = docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (docs[mid] === d) return true;
    if (docs[mid] < d) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
