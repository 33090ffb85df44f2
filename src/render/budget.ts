import type { SearchReport } from './report.js';

/** Approximate tokens of text as most LLM tokenizers count code: about four characters each. */
export function estimateTokens(text: string): number {
  return tokensOf(text.length);
}

function tokensOf(chars: number): number {
  return Math.ceil(chars / 4);
}

export interface Trimmed {
  report: SearchReport;
  dropped: number;
  tokens: number;
}

/**
 * Keeps the best-ranked results whose rendering fits in `maxTokens`, dropping whole results from the end:
 * a result is never cut in the middle. Each result's cost is what it adds to the rendered output.
 */
export function trimToTokenBudget(report: SearchReport, maxTokens: number, render: (r: SearchReport) => string): Trimmed {
  const frame = render({ ...report, results: [] }).length;
  let chars = frame;
  let kept = 0;
  for (const result of report.results) {
    const cost = render({ ...report, results: [result] }).length - frame;
    if (tokensOf(chars + cost) > maxTokens) break;
    chars += cost;
    kept++;
  }
  const trimmed = { ...report, results: report.results.slice(0, kept) };
  return { report: trimmed, dropped: report.results.length - kept, tokens: estimateTokens(render(trimmed)) };
}
