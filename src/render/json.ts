import type { SearchReport } from './report.js';

/**
 * The results array, unchanged from `--json`: scripts already read `[{path, startLine, endLine, language, symbol,
 * score, text}]`; a long chunk cut to the part that answers adds `shown: [{startLine, endLine}]`, a file whose exact
 * name `path` cannot show adds `quotedPath` (git's quoted form, `path-key.ts`). When a token budget left something
 * out, a last element says what, and has no `path`: `{leftOut: {dropped, cut, maxTokens}}` (results dropped, cut).
 * A partial answer (a fresh clone's, while its first index is built) ends with `{partial: {searched, total, notice}}`.
 */
export function formatJson(report: SearchReport): string {
  const left = report.leftOut;
  const items: unknown[] = [...report.results, ...(left ? [{ leftOut: left }] : []), ...(report.partial ? [{ partial: report.partial }] : [])];
  return JSON.stringify(items, null, 2) + '\n';
}
