import type { MatchEvidence } from './match-evidence.js';

// The rule below was chosen with bench/off-topic/ (collect.ts, choose.ts) on the semble benchmark in English and
// Chinese (16 repositories), the dev set (11), the long-query set (5) and 147 off-topic questions asked of every
// one of those repositories; the threshold was chosen on one half of the questions and checked on the other.
// At these values: 90.9 % of the off-topic questions asked of the benchmark's repositories are answered "no good
// match" (half A 90.4 %, half B 91.4 %); relevant top-10 hits lost: English 0.47 %, Chinese 0.15 %, dev set 0.68 %,
// long queries 0 (none of the 86 silenced).

/**
 * The least match score (matchScore, 0..1) at which an answer is given, for every surface (search_code's
 * min_score, `ocrag search --min-match`, the OpenCode plugin): the lowest at which 90 % of half the off-topic
 * questions got "no good match" with at most 1 % of that half's relevant top-10 hits lost.
 */
export const DEFAULT_MIN_MATCH = 0.25;

/** The words' share counts as much as closeness in meaning: 1.5 or 2 times as much lost more relevant hits at 90 %. */
const SHARE_WEIGHT = 1;
/**
 * A long question needs only this much of its words' weight found for a full share, in words the view never holds
 * (absentWeight): its many words would otherwise dilute the one or two identifiers that say where to look. 4 or 6
 * answered fewer off-topic questions "no good match" at the same losses, ∞ silenced long queries.
 */
const SHARE_CAP_WORDS = 5;
/**
 * A question of only common words (found everywhere, weighing little) needs this much weight found for a full
 * share: half a word the view never holds. Without it, small talk whose words a repository happens to hold (Chinese
 * read as English "eat", "good") matched; 0.7 lost more at 90 %. In units of the view's own rarest weight, so a
 * small repository (a single document) is not held to a big one's scale.
 */
const SHARE_FLOOR_WORDS = 0.5;

export interface MatchRule {
  shareWeight: number;
  /** Both in words the view never holds (MatchEvidence.absentWeight). */
  shareCap: number;
  shareFloor: number;
}

export const MATCH_RULE: MatchRule = { shareWeight: SHARE_WEIGHT, shareCap: SHARE_CAP_WORDS, shareFloor: SHARE_FLOOR_WORDS };

/**
 * How well hit `i` matches (0..1): the mean of its closeness in meaning (cosine) and the rarity-weighted share of
 * the query's words it holds. Cosine alone cannot tell: keyboard noise reaches 0.45–0.77 on some chunks.
 */
export function matchScore(e: Pick<MatchEvidence, 'weights' | 'found' | 'cosines' | 'absentWeight'>, i: number, rule: MatchRule = MATCH_RULE): number {
  const cosine = Math.max(0, e.cosines[i] ?? 0);
  // A query of no words to share (`g`, punctuation) is judged by its meaning alone.
  if (!e.weights.length) return cosine;
  const found = e.found[i] ?? [];
  let total = 0;
  let held = 0;
  e.weights.forEach((w, j) => {
    total += w;
    if (found[j]) held += w;
  });
  const share = Math.min(1, held / Math.min(Math.max(total, rule.shareFloor * e.absentWeight), rule.shareCap * e.absentWeight));
  return (cosine + rule.shareWeight * share) / (1 + rule.shareWeight);
}

/** Whether any hit is a real match: the query names a definition the view holds, or a hit scores at least `minMatch`; 0 keeps every answer. */
export function hasGoodMatch(e: MatchEvidence, minMatch: number): boolean {
  if (minMatch <= 0 || e.namesDefinition) return true;
  return e.cosines.some((_, i) => matchScore(e, i) >= minMatch);
}
