import type { Hit } from './rank/hit.js';

/**
 * The least similarity (cosine between query and chunk vectors) at which the best chunk counts as a match, for
 * surfaces that would rather say "no good match" than hand back the closest noise (search_code's min_score).
 * Measured on the semble benchmark (16 repositories, 319 queries, bench/relevance-scores.ts) against 20
 * off-topic questions asked of each (recipes, trivia, keyboard noise, Chinese small talk): with the lexical
 * rule below, 0.3 answers "no good match" to 140 of the 320 off-topic questions and silences 2 of the 319 real
 * ones, losing 2 of the 612 relevant top-10 hits; 0.35 would answer 163 but lose 4, 0.25 only 104.
 */
export const DEFAULT_MIN_MATCH = 0.3;

/**
 * A chunk whose words match the query this strongly (BM25) counts as a match whatever its vector says: an
 * identifier or a rare word found verbatim. Relevant top-10 hits score BM25 ≥ 4 in 86 % of cases, off-topic
 * questions' hits in 13 %.
 */
const LEXICAL_MATCH_BM25 = 4;

/** Whether any of these hits is a real match: close enough in meaning, or sharing the query's words strongly. */
export function hasGoodMatch(hits: readonly Hit[], minMatch: number): boolean {
  if (minMatch <= 0) return true;
  return hits.some((h) => h.candidate.cosine >= minMatch || h.candidate.bm25 >= LEXICAL_MATCH_BM25);
}
