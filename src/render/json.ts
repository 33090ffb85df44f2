import type { SearchReport } from './report.js';

/** The results array, unchanged from `--json`: scripts already read `[{path, startLine, endLine, language, symbol, score, text}]`. */
export function formatJson(report: SearchReport): string {
  return JSON.stringify(report.results, null, 2) + '\n';
}
