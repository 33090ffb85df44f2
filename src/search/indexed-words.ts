import { nameWords } from '../text/breadcrumb.js';
import { commentWords } from '../text/comments.js';

/**
 * BM25F-style field weights on top of the words of breadcrumb and text: the words naming a chunk's own definition
 * (`handle` in `class Router > method handle`) and the words of its comments and docstrings (prose, as queries
 * are). Measured on the benchmark: flat between 3 and 6 for names, best near 0.5 for comments.
 */
const NAME_FIELD_WEIGHT = 4;
const COMMENT_FIELD_WEIGHT = 0.5;

/**
 * Every word a chunk is found by, with its field weight, as the resident set indexes it (the posting of a word is
 * its stem's): its search words, its own definition's name words and its comments' words. A search-ready set
 * from elsewhere is held to the same (index/verify/search-set.ts).
 */
export function forEachIndexedWord(terms: string, symbol: string, text: string, visit: (word: string, weight: number) => void): void {
  for (const word of terms.split(' ')) if (word) visit(word, 1);
  for (const word of nameWords(symbol)) visit(word, NAME_FIELD_WEIGHT);
  for (const word of commentWords(text)) visit(word, COMMENT_FIELD_WEIGHT);
}
