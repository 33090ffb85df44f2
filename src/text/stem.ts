import { BoundedMemo } from '../util/bounded-memo.js';

/**
 * Crude suffix stripping so `routing`, `router`, `routes` and `route` meet, as do `extractors` and
 * `extraction`. Path words are few and short; a real stemmer would buy little.
 */
export function stem(word: string): string {
  return stems.get(word, stripSuffix);
}

// Words of code repeat endlessly: a bounded memo makes loading a branch's chunks several times cheaper.
const stems = new BoundedMemo<string, string>(200_000);

function stripSuffix(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
  const stripped = w.replace(/(?:ations?|ings?|ers?|ors?|ions?|ed|es|s|e|ly)$/, '');
  return stripped.length >= 3 ? stripped : w;
}
