import { cjkTerms, hasCjk } from './scripts.js';

/** A line opening or continuing a comment or docstring: `//`, `#` (not a Rust `#[attribute]`), `/*`, ` *`, `"""`, `'''`. */
const COMMENT_LINE = /^\s*(?:\/\/|#(?!\[)|\/\*|\*|"{3}|'{3})/;

/** COMMENT_LINE at a line's start within a whole text: its spaces never run past the line's end. */
const COMMENT_AT = /[^\S\n]*(?:\/\/|#(?!\[)|\/\*|\*|"{3}|'{3})/y;

export function isCommentLine(line: string): boolean {
  return COMMENT_LINE.test(line);
}

/**
 * The words of a text's comment lines, as prose: plain lower-case words (no identifier splitting needed), and the
 * character bigrams of Chinese, Japanese or Korean comments (`// 解析参数` → 解析 析参 参数).
 */
export function commentWords(text: string): string[] {
  const out: string[] = [];
  // Line by line without splitting the text: most lines are code, and a string for each was a chunk's garbage.
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    COMMENT_AT.lastIndex = start;
    const comment = COMMENT_AT.test(text);
    const line = comment ? text.slice(start, end) : '';
    start = end + 1;
    if (!comment) continue;
    for (const word of line.toLowerCase().split(/[^a-z0-9_]+/)) if (word.length > 1) out.push(word);
    if (hasCjk(line)) out.push(...cjkTerms(line));
  }
  return out;
}
