import type { SearchResult } from '../search/search.js';

/** A line of a result as shown, with its line number in the file; a cut marker line has none. */
export interface NumberedLine {
  line: number | null;
  text: string;
}

/** The lines of a result's text with their numbers: consecutive from startLine, or per shown part of a cut chunk. */
export function numberedLines(r: Pick<SearchResult, 'text' | 'startLine' | 'endLine' | 'shown'>): NumberedLine[] {
  const texts = r.text.split('\n');
  if (!r.shown) return texts.map((text, i) => ({ line: r.startLine + i, text }));
  const numbers: (number | null)[] = [];
  let next = r.startLine;
  for (const s of r.shown) {
    if (s.startLine > next) numbers.push(null);
    for (let n = s.startLine; n <= s.endLine; n++) numbers.push(n);
    next = s.endLine + 1;
  }
  if (next <= r.endLine) numbers.push(null);
  return texts.map((text, i) => ({ line: numbers[i] ?? null, text }));
}

/** `12-14, 30-53`: the parts of a cut chunk a result shows. */
export function shownRanges(shown: { startLine: number; endLine: number }[]): string {
  // A result cut by a token budget to its location alone shows no line of its chunk.
  if (!shown.length) return 'none';
  return shown.map((s) => `${s.startLine}-${s.endLine}`).join(', ');
}
