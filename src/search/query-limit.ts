import { OcragError } from '../util/errors.js';

/**
 * The longest query ocrag reads, in characters (UTF-16 code units, as JavaScript and zod count them): a pasted stack
 * trace, error output or bug report fits. One number for every surface: search_code's schema, `ocrag search`, the
 * OpenCode plugin and its host, and the guidance the agents read. A long query is read as weighted parts, at most
 * 300 terms and 12 names looked up (query-parts.ts), so 10,000 characters answer about as fast as a question.
 */
export const MAX_QUERY_CHARS = 10_000;

/**
 * A count as people read it in English, `10,000`. Not toLocaleString('en-US'): its first call loads the ICU locale
 * data, which took 20-40 ms of every CLI start (500 ms on a loaded machine), since the limit's text is in `--help`.
 */
export function withThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The limit as people read it: `10,000`. */
export const MAX_QUERY_CHARS_TEXT = withThousands(MAX_QUERY_CHARS);

/** A query past the limit is refused in one line saying what to keep, never cut silently. */
export function checkQueryLength(query: string): void {
  if (query.length <= MAX_QUERY_CHARS) return;
  throw new OcragError(`the query is ${withThousands(query.length)} characters; at most ${MAX_QUERY_CHARS_TEXT} are read: keep the error line, the stack frames and the part of the report that matters`);
}
