import { hanRuns } from './scripts.js';
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS } from './stop-words.js';
import type { ZhLexicon } from './zh-lexicon.js';

/** What the Chinese of a query says: its content words, and English words for them with a weight each. */
export interface HanReading {
  words: string[];
  /** English word → weight (1 for a word's first sense, less for later ones). */
  english: Map<string, number>;
}

/**
 * Weight of a word's later senses against its first: CC-CEDICT lists the common sense first, and a computing
 * sense is moved there by the lexicon, so later senses are more often wrong for code.
 */
const SENSE_WEIGHTS = [1, 0.5, 0.25];

/** Reads the Han runs of `text` into content words and their English words. Pure given the lexicon. */
export function readHan(text: string, lexicon: ZhLexicon): HanReading {
  const words: string[] = [];
  const english = new Map<string, number>();
  for (const run of hanRuns(text)) {
    for (const word of lexicon.segment(run)) {
      if (CHINESE_STOP_WORDS.has(word)) continue;
      words.push(word);
      lexicon.senses(word).forEach((sense, i) => {
        const weight = SENSE_WEIGHTS[i] ?? 0;
        for (const w of sense.split(/[^a-z0-9]+/)) {
          if (w.length < 2 || ENGLISH_STOP_WORDS.has(w)) continue;
          english.set(w, Math.max(english.get(w) ?? 0, weight));
        }
      });
    }
  }
  return { words, english };
}
