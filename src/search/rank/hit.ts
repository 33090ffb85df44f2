import type { Candidate } from '../candidates.js';
import type { ViewFile } from '../view.js';

/** One candidate as the ranking scores it: what every signal and stage reads and writes. */
export interface Hit {
  candidate: Candidate;
  file: ViewFile;
  /** Fused relevance before boosts (0..1). */
  base: number;
  score: number;
  /**
   * What each signal added (by its name), the product of the penalties (`penalty`) and what whole-list stages
   * added, for `npm run eval -- --explain`.
   */
  parts: Record<string, number>;
}
