import { cjkTerms, hasCjk } from './scripts.js';

/** A line opening or continuing a comment or docstring: `//`, `#` (not a Rust `#[attribute]`), `/*`, ` *`, `"""`, `'''`. */
const COMMENT_LINE = /^\s*(?:\/\/|#(?!\[)|\/\*|\*|"{3}|'{3})/;

export function isCommentLine(line: string): boolean {
  return COMMENT_LINE.test(line);
}

/**
 * The words of a text's comment lines, as prose: plain lower-case words (no identifier splitting needed), and the
 * character bigrams of Chinese, Japanese or Korean comments (`// 解析参数` → 解析 析参 参数).
 */
export function commentWords(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!isCommentLine(line)) continue;
    for (const word of line.toLowerCase().split(/[^a-z0-9_]+/)) if (word.length > 1) out.push(word);
    if (hasCjk(line)) out.push(...cjkTerms(line));
  }
  return out;
}
