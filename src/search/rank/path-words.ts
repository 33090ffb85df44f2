import type { ViewFile } from '../view.js';

/**
 * Crude suffix stripping so `routing`, `router`, `routes` and `route` meet, as do `extractors` and
 * `extraction`. Path words are few and short; a real stemmer would buy little.
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
  const stripped = w.replace(/(?:ations?|ings?|ers?|ors?|ions?|ed|es|s|e|ly)$/, '');
  return stripped.length >= 3 ? stripped : w;
}

function wordsMatch(keyword: string, word: string): boolean {
  if (keyword === word) return true;
  if (keyword.length < 3 || word.length < 3) return false;
  if (stem(keyword) === stem(word)) return true;
  const [shorter, longer] = keyword.length <= word.length ? [keyword, word] : [word, keyword];
  return shorter.length >= 4 && longer.startsWith(shorter) && longer.length - shorter.length <= 4;
}

/**
 * How well a file's name and directory answer the query's words, 0..1: the share of keywords found in the file
 * name or the directory holding it (a deeper ancestor counts less).
 */
export function pathMatch(keywords: string[], file: ViewFile): number {
  if (!keywords.length) return 0;
  let matched = 0;
  for (const keyword of keywords) {
    let best = 0;
    if (file.stemWords.some((w) => wordsMatch(keyword, w))) best = 1;
    else if (file.dirWords[0]?.some((w) => wordsMatch(keyword, w))) best = 1;
    else if (file.dirWords.slice(1, 3).some((ws) => ws.some((w) => wordsMatch(keyword, w)))) best = 0.3;
    matched += best;
  }
  return matched / keywords.length;
}

/** A file named after the name (`routergroup.go` for `RouterGroup`, `sessions.py` for `Session`). */
export function stemNamesSymbol(file: ViewFile, name: string): boolean {
  const lower = name.toLowerCase();
  const whole = file.stemWords[0] ?? '';
  return whole === lower || stem(whole) === stem(lower) || whole === lower + 's';
}
