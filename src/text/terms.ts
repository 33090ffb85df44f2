import { SpanMemo } from '../util/span-memo.js';
import { cjkTerms, hasCjk } from './scripts.js';

/**
 * Identifiers repeat across a repository's chunks: splitting each once keeps indexing off the regular expressions.
 * Looked up by its place in the text, not sliced out first (an index of tokio looks up 1.4 million words).
 */
const WORD_TERMS = new SpanMemo<readonly string[]>(100_000);

/**
 * Identifier-aware words for lexical search: `parseHTTPRequest_v2` gives the whole identifier and its parts
 * (parsehttprequest_v2, parse, http, request, v2), so a query can match either; Chinese, Japanese and Korean
 * text gives its character bigrams (`解析参数` → 解析 析参 参数). Pure.
 */
export function codeTerms(text: string): string[] {
  const out: string[] = hasCjk(text) ? cjkTerms(text) : [];
  forEachWordSpan(text, (start, end) => {
    for (const term of WORD_TERMS.get(text, start, end, wordTerms)) out.push(term);
  });
  return out;
}

/**
 * `codeTerms(text).join(' ')`, the words an index run stores with each chunk, built without the array of every
 * word (tokio's chunks: ~1.4 million words through arrays made only to be joined).
 */
export function codeTermsLine(text: string): string {
  const cjk = hasCjk(text) ? cjkTerms(text) : [];
  let line: string | null = cjk.length ? cjk.join(' ') : null;
  forEachWordSpan(text, (start, end) => {
    for (const term of WORD_TERMS.get(text, start, end, wordTerms)) line = line === null ? term : `${line} ${term}`;
  });
  return line ?? '';
}

/** What each ASCII code unit may be in a word: 1 starts and continues one (letters, `_`), 2 only continues (digits). */
const WORD_CHAR = new Uint8Array(128);
for (const [from, to, kind] of [[65, 90, 1], [97, 122, 1], [95, 95, 1], [48, 57, 2]] as const) WORD_CHAR.fill(kind, from, to + 1);

/**
 * Each match of /[A-Za-z_][A-Za-z0-9_]*|[0-9]+/g in the text, in order, as its span (`start` to `end`). Scanned by
 * hand: the match objects of `matchAll` were 130 MB of the 650 MB a tokio index run allocated.
 */
export function forEachWordSpan(text: string, visit: (start: number, end: number) => void): void {
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    const kind = c < 128 ? WORD_CHAR[c] : 0;
    if (kind === 0) {
      i++;
      continue;
    }
    const start = i++;
    for (; i < n; i++) {
      const d = text.charCodeAt(i);
      if (!(d < 128 && (kind === 1 ? WORD_CHAR[d] !== 0 : WORD_CHAR[d] === 2))) break;
    }
    visit(start, i);
  }
}

function wordTerms(word: string): readonly string[] {
  const whole = word.toLowerCase().replace(/^_+|_+$/g, '');
  if (whole.length < 2) return [];
  const parts = splitIdentifier(word);
  const out = parts.length !== 1 || parts[0] !== whole ? [whole] : [];
  for (const part of parts) if (part.length >= 2) out.push(part);
  return out;
}

/** camelCase, PascalCase, ACRONYMWords, snake_case and digits → lower-case parts. */
export function splitIdentifier(word: string): string[] {
  return word
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .split(/[\s_]+/)
    .filter(Boolean)
    .map((p) => p.toLowerCase());
}
