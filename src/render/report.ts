import type { SearchResult } from '../search/search.js';
import { withThousands } from '../search/query-limit.js';
import type { PartialAnswer } from '../service/early-answer.js';

/** What a search printed in any format: the query, how long it took, and the ranked chunks. */
export interface SearchReport {
  query: string;
  latencyMs: number;
  results: SearchResult[];
  /** Present when a token budget left something out (budget.ts): every format ends by saying what. */
  leftOut?: LeftOut;
  /** Present when the answer is partial (a fresh clone's first index still being built): how far it looked, and why. */
  partial?: PartialAnswer;
}

/** What a token budget left out of a report. */
export interface LeftOut {
  /** Lower-ranked results not shown at all. */
  dropped: number;
  /** Results shown cut to their first lines (the best one, when not even it fits whole). */
  cut: number;
  maxTokens: number;
}

export const OUTPUT_FORMATS = ['text', 'json', 'xml', 'markdown'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `the first result cut and 9 more left out to fit 100 tokens`: what a format's last line says (the cut result's lines show what of it is cut). */
export function leftOutNote({ dropped, cut, maxTokens }: LeftOut): string {
  const more = `${dropped} ${cut ? 'more' : `lower-ranked result${dropped === 1 ? '' : 's'}`} left out`;
  const what = cut ? `the ${dropped ? 'first ' : ''}result cut${dropped ? ` and ${more}` : ''}` : more;
  return `${what} to fit ${maxTokens} tokens`;
}

/** Past this many characters a query is a pasted report or trace: an answer names it by its start, not whole. */
const ECHOED_QUERY_CHARS = 120;

/**
 * The query as an answer repeats it: whole when short; a pasted stack trace or report by its first line, cut to 120
 * characters, and its length, since repeating 10,000 characters in every answer would spend the reader's tokens (and
 * a token budget) on what they sent.
 */
export function echoedQuery(query: string): string {
  if (query.length <= ECHOED_QUERY_CHARS) return query;
  const first = query.trim().split('\n')[0]!.trim();
  return `${Array.from(first).slice(0, ECHOED_QUERY_CHARS).join('')}… (${withThousands(query.length)} characters)`;
}
