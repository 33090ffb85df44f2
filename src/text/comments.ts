import { cjkTerms, hasCjk } from './scripts.js';

/** What opens or continues a comment or docstring: `//`, `#` (not a Rust `#[attribute]`), `/*`, ` *`, `"""`, `'''`. */
const COMMENT_MARK = String.raw`(?:\/\/|#(?!\[)|\/\*|\*|"{3}|'{3})`;

/** A line opening or continuing a comment or docstring. */
const COMMENT_LINE = new RegExp(String.raw`^\s*${COMMENT_MARK}`);

/** COMMENT_LINE at a line's start within a whole text: its spaces never run past the line's end. */
const COMMENT_AT = new RegExp(String.raw`[^\S\n]*${COMMENT_MARK}`, 'y');

export function isCommentLine(line: string): boolean {
  return COMMENT_LINE.test(line);
}

/**
 * The words of a text's comment lines, as prose: plain lower-case words (no identifier splitting needed), and the
 * character bigrams of Chinese, Japanese or Korean comments (`// 解析参数` → 解析 析参 参数).
 */
export function commentWords(text: string): string[] {
  const out: string[] = [];
  forEachCommentWord(text, (source, start, end) => out.push(source.slice(start, end)));
  return out;
}

/**
 * Each of commentWords, in order, as a span of a string (a lower-cased line, or a bigram): a set's word index
 * looks them up without slicing each out (util/span-memo.ts).
 */
export function forEachCommentWord(text: string, visit: (source: string, start: number, end: number) => void): void {
  // Line by line without splitting the text: most lines are code, and a string for each was a chunk's garbage.
  for (let start = 0, end = 0; start <= text.length; start = end + 1) {
    end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    COMMENT_AT.lastIndex = start;
    if (!COMMENT_AT.test(text)) continue;
    const line = text.slice(start, end);
    forEachProseWord(line.toLowerCase(), visit);
    if (hasCjk(line)) for (const term of cjkTerms(line)) visit(term, 0, term.length);
  }
}

/** The runs of `[a-z0-9_]` longer than one unit: what `lower.split(/[^a-z0-9_]+/)` gives, less one-letter words. */
function forEachProseWord(lower: string, visit: (source: string, start: number, end: number) => void): void {
  const n = lower.length;
  for (let i = 0; i < n; ) {
    if (!isProseChar(lower.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i++;
    while (i < n && isProseChar(lower.charCodeAt(i))) i++;
    if (i - start > 1) visit(lower, start, i);
  }
}

function isProseChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;
}
