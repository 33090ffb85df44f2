import type { SearchReport } from './report.js';

/**
 * The results array, unchanged from `--json`: scripts already read `[{path, startLine, endLine, language, symbol,
 * score, text}]`; a long chunk cut to the part that answers adds `shown: [{startLine, endLine}]`, a file whose exact
 * name `path` cannot show adds `quotedPath` (git's quoted form, `path-key.ts`).
 */
export function formatJson(report: SearchReport): string {
  return JSON.stringify(report.results, null, 2) + '\n';
}
