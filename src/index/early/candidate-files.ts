import type { WordCounts } from '../../git/grep.js';
import type { QueryInfo } from '../../search/query.js';
import { hasCjk } from '../../text/scripts.js';
import { stem } from '../../text/stem.js';
import { segmentWords } from '../../text/path-words.js';
import { bm25Idf } from '../../text/bm25.js';

/** A selected file as the tree lists it. */
export interface TreeFile {
  path: string;
  blob: string;
  size: number;
}

/** At most this many words are looked for: a long question's later words add cost, not candidates. */
const MAX_WORDS = 12;
/** Words shorter than this match inside too many others (`io`, `rt`) to tell files apart as substrings. */
const MIN_WORD = 3;
/** BM25 over whole files: saturation, and how much a long file's many matches are discounted. */
const K1 = 1.2;
const B = 0.75;
/** A query word in a file's path counts as this many occurrences' worth (a path names what the file is about). */
const PATH_WEIGHT = 1.5;

/**
 * The words a question's candidate files are found by, as fixed strings to grep for: the identifiers it names as
 * written, then its content words cut to their stems (`blocking` → `block`, which also finds `BlockingTask`), and
 * for Chinese the English the query analysis reads from it and the Chinese itself. Each word once, at most MAX_WORDS.
 */
export function grepWords(q: QueryInfo): string[] {
  const words: string[] = [];
  const add = (w: string) => {
    const lower = w.toLowerCase();
    if ([...lower].length >= (hasCjk(lower) ? 2 : MIN_WORD) && !words.includes(lower)) words.push(lower);
  };
  for (const symbol of q.symbols) add(symbol);
  for (const keyword of q.keywords) add(stem(keyword).length >= MIN_WORD ? stem(keyword) : keyword);
  for (const term of q.terms) if (hasCjk(term)) add(term);
  // The symbols' parts are keywords already; a bare name's are what else a definition is written with.
  if (q.isName) for (const symbol of q.symbols) for (const part of segmentWords(symbol)) add(part);
  return words.slice(0, MAX_WORDS);
}

/**
 * Files ranked by how well they match the words, BM25 over whole files (a word rare in the tree weighs most; a
 * file's length discounts its matches) plus the words its path holds. Files matching nothing are left out.
 */
export function rankFiles(files: TreeFile[], counts: Map<string, WordCounts>, words: string[]): TreeFile[] {
  if (!files.length || !words.length) return [];
  const avgSize = files.reduce((s, f) => s + f.size, 0) / files.length || 1;
  // A word in the path as a substring, as grep finds it in the text (`block` in `blocking/pool.rs`).
  const paths = new Map(files.map((f) => [f.path, f.path.toLowerCase()]));
  const df = new Map<string, number>(words.map((w) => [w, 0]));
  for (const f of files) {
    const found = counts.get(f.path);
    for (const w of words) if (found?.has(w) || paths.get(f.path)!.includes(w)) df.set(w, df.get(w)! + 1);
  }
  const idf = new Map(words.map((w) => [w, bm25Idf(files.length, df.get(w)!)]));
  const scored: { file: TreeFile; score: number }[] = [];
  for (const f of files) {
    const found = counts.get(f.path);
    const path = paths.get(f.path)!;
    let score = 0;
    for (const w of words) {
      const tf = found?.get(w) ?? 0;
      const text = tf ? (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * f.size) / avgSize)) : 0;
      score += idf.get(w)! * (text + (path.includes(w) ? PATH_WEIGHT : 0));
    }
    if (score > 0) scored.push({ file: f, score });
  }
  return scored.sort((a, b) => b.score - a.score || (a.file.path < b.file.path ? -1 : 1)).map((s) => s.file);
}
