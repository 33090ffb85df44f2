import { hanRuns } from './scripts.js';
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS } from './stop-words.js';
import type { ZhLexicon } from './zh-lexicon.js';


/**
 * Weight of a word's later senses against its first: CC-CEDICT lists the common sense first, and a computing
 * sense is moved there by the lexicon, so later senses are more often wrong for code.
 */
const SENSE_WEIGHTS = [1, 0.5, 0.25];

/**
 * The English words the Han runs of `text` mean, each with a weight (1 for a word's first sense, less for later
 * ones); function and question words are skipped. Pure given the lexicon.
 */
export function englishOfHan(text: string, lexicon: ZhLexicon): Map<string, number> {
  const english = new Map<string, number>();
  for (const run of hanRuns(text)) {
    for (const word of lexicon.segment(run)) {
      if (CHINESE_STOP_WORDS.has(word)) continue;
      lexicon.senses(word).forEach((sense, i) => {
        const weight = SENSE_WEIGHTS[i] ?? 0;
        for (const w of sense.split(/[^a-z0-9]+/)) {
          if (w.length < 2 || ENGLISH_STOP_WORDS.has(w)) continue;
          english.set(w, Math.max(english.get(w) ?? 0, weight));
        }
      });
    }
  }
  return english;
}
