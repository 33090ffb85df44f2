/**
 * Crude suffix stripping so `routing`, `router`, `routes` and `route` meet, as do `extractors` and
 * `extraction`. Path words are few and short; a real stemmer would buy little.
 */
export function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    let w = word.toLowerCase();
    if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
    const stripped = w.replace(/(?:ations?|ings?|ers?|ors?|ions?|ed|es|s|e|ly)$/, '');
    s = stripped.length >= 3 ? stripped : w;
    // Words of code repeat endlessly: a bounded memo makes loading a branch's chunks several times cheaper.
    if (stems.size > 200_000) stems.clear();
    stems.set(word, s);
  }
  return s;
}

const stems = new Map<string, string>();
