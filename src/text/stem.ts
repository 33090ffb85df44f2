import { BoundedMemo } from '../util/bounded-memo.js';

/**
 * Crude suffix stripping so `routing`, `router`, `routes` and `route` meet, as do `extractors` and
 * `extraction`, `validate` and `validation`, `verified` and `verification`. Path words are few and short; a
 * real stemmer would buy little.
 */
export function stem(word: string): string {
  return stems.get(word, stripSuffix);
}

// Words of code repeat endlessly: a bounded memo makes loading a branch's chunks several times cheaper.
const stems = new BoundedMemo<string, string>(200_000);

const SUFFIX = /(?:ations?|ings?|ers?|ors?|ions?|ed|es|s|e|ly)$/;
/**
 * The `at` of a verb in `-ate` once its ending is gone, after a consonant and two more letters (`valid|at`,
 * `templ|at`) or after `cre`; after another vowel it belongs to the word (`float|ing`, `repeat|ed`).
 */
const VERB_AT = /(?<=..[b-df-hj-np-tv-z]|.re)at$/;

function stripSuffix(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && /ie[sd]$/.test(w)) w = w.slice(0, -3) + 'y';
  // Prose writes `verification`, code `verify`: the noun of an `-ify` verb is the verb.
  w = w.replace(/ifications?$/, 'ify');
  const suffix = SUFFIX.exec(w)?.[0] ?? '';
  const stripped = w.slice(0, w.length - suffix.length);
  if (stripped.length < 3) return w;
  // Prose names the act (`validation`, losing its `ation` whole), code the verb (`validate`, `validator`,
  // `validating`): their `at` goes too, after an ending of two letters or an `e` only (`format` and `formats`
  // keep theirs), and only with three letters left (`state` keeps its own).
  return suffix.length > 1 || suffix === 'e' ? stripped.replace(VERB_AT, '') : stripped;
}
