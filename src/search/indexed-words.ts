import { nameWords } from '../text/breadcrumb.js';
import { forEachCommentWord } from '../text/comments.js';

/**
 * BM25F-style field weights on top of the words of breadcrumb and text: the words naming a chunk's own definition
 * (`handle` in `class Router > method handle`) and the words of its comments and docstrings (prose, as queries
 * are). Measured on the benchmark: flat between 3 and 6 for names, best near 0.5 for comments.
 */
export const NAME_FIELD_WEIGHT = 4;
export const COMMENT_FIELD_WEIGHT = 0.5;

/**
 * Every word a chunk is found by, with its field weight, as the resident set indexes it (the posting of a word is
 * its stem's): its search words, its own definition's name words and its comments' words. A search-ready set
 * from elsewhere is held to the same (index/verify/search-set.ts).
 */
export function forEachIndexedWord(terms: string, symbol: string, text: string, visit: (word: string, weight: number) => void): void {
  forEachIndexedSpan(terms, symbol, text, (source, start, end, weight) => visit(start === 0 && end === source.length ? source : source.slice(start, end), weight));
}

/**
 * The words of forEachIndexedWord, in the same order, each as a span of a string (`source` from `start` to `end`):
 * the set's word index looks them up without slicing each out (util/span-memo.ts).
 */
export function forEachIndexedSpan(terms: string, symbol: string, text: string, visit: (source: string, start: number, end: number, weight: number) => void): void {
  // The search words are joined by single spaces: what `terms.split(' ')` gives, less empty words.
  for (let start = 0; start < terms.length; ) {
    let end = terms.indexOf(' ', start);
    if (end < 0) end = terms.length;
    if (end > start) visit(terms, start, end, 1);
    start = end + 1;
  }
  for (const word of nameWords(symbol)) visit(word, 0, word.length, NAME_FIELD_WEIGHT);
  forEachCommentWord(text, (source, start, end) => visit(source, start, end, COMMENT_FIELD_WEIGHT));
}
