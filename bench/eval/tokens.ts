// What an agent pays to read the results: tokens read until the first relevant result, and the share of a query's
// targets found within a token budget. As the semble benchmark measures them (benchmarks/bench_token_efficiency,
// in its repository): the ranked units are read in order, each costs the tokens of its text, a target counts once
// the first unit covering it is read (that unit included); recall at B is the coverage at the last unit that fits
// in B; means are over all queries of all repositories (not per repository first). semble counts with tiktoken's
// cl100k_base, which is not installed here; the estimate is four characters a token, what `--max-tokens` budgeted with
// until it counted by script (render/budget.ts: 3.4 characters, or one CJK character, a token), kept here so the
// numbers stay comparable with those recorded (README), ours against ours, and near semble's scale.
import type { SearchResult } from '../../src/search/search.js';
import type { Harness, Task } from './harness.js';
import { scorable } from './shown.js';

export const TOKEN_BUDGETS = [500, 1000, 2000] as const;
/** semble reads its top 50 units: 2,000 tokens is 10–20 results, more than the 10 NDCG looks at. */
export const TOKEN_DEPTH = 50;

export interface TokenRow {
  repo: string;
  category: string;
  /** Tokens read up to and including the first result covering a target; null when none of the results does. */
  firstHit: number | null;
  recall: number[];
  /** Tokens of the first 10 results: what a search at the default k costs. */
  top10: number;
}

/** One query's row from its ranked results. */
export function tokenRow(h: Pick<Harness, 'covers'>, repo: string, task: Task, results: SearchResult[]): TokenRow {
  const covered = task.targets.map(() => false);
  const curve: { tokens: number; covered: number }[] = [{ tokens: 0, covered: 0 }];
  let tokens = 0;
  let firstHit: number | null = null;
  let top10 = 0;
  for (const [rank, r] of results.entries()) {
    tokens += Math.ceil(r.text.length / 4);
    const result = scorable(h, r, task.targets);
    task.targets.forEach((t, i) => {
      if (!covered[i] && h.covers(result, t)) covered[i] = true;
    });
    const n = covered.filter(Boolean).length;
    if (n > 0 && firstHit === null) firstHit = tokens;
    curve.push({ tokens, covered: n });
    if (rank < 10) top10 = tokens;
  }
  const recallAt = (budget: number) => {
    let at = 0;
    for (const p of curve) {
      if (p.tokens > budget) break;
      at = p.covered;
    }
    return task.targets.length ? at / task.targets.length : 0;
  };
  return { repo, category: task.category, firstHit, recall: TOKEN_BUDGETS.map(recallAt), top10 };
}

export interface TokenSummary {
  queries: number;
  /** Queries with a relevant result among those read. */
  hits: number;
  meanFirstHit: number;
  medianFirstHit: number;
  recall: number[];
  meanTop10: number;
}

export function summarizeTokens(rows: TokenRow[]): TokenSummary {
  const firsts = rows.map((r) => r.firstHit).filter((t): t is number => t !== null).sort((a, b) => a - b);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const mid = firsts.length ? (firsts[(firsts.length - 1) >> 1]! + firsts[firsts.length >> 1]!) / 2 : 0;
  return {
    queries: rows.length,
    hits: firsts.length,
    meanFirstHit: mean(firsts),
    medianFirstHit: mid,
    recall: TOKEN_BUDGETS.map((_, i) => mean(rows.map((r) => r.recall[i]!))),
    meanTop10: mean(rows.map((r) => r.top10)),
  };
}

export function printTokens(rows: TokenRow[], log: (line: string) => void): void {
  log(`tokens an agent reads (top ${TOKEN_DEPTH}, ~4 characters a token; means over queries):`);
  log([''.padEnd(22), 'q'.padStart(4), 'found'.padStart(6), 'first_mean'.padStart(10), 'first_p50'.padStart(9), ...TOKEN_BUDGETS.map((b) => `R@${b}`.padStart(7)), 'top10_tok'.padStart(9)].join(' '));
  const line = (label: string, of: TokenRow[]) => {
    const s = summarizeTokens(of);
    log([label.padEnd(22), String(s.queries).padStart(4), String(s.hits).padStart(6), s.meanFirstHit.toFixed(0).padStart(10), s.medianFirstHit.toFixed(0).padStart(9), ...s.recall.map((v) => v.toFixed(3).padStart(7)), s.meanTop10.toFixed(0).padStart(9)].join(' '));
  };
  line('ALL', rows);
  for (const c of [...new Set(rows.map((r) => r.category))].sort()) line(`  ${c}`, rows.filter((r) => r.category === c));
  for (const repo of [...new Set(rows.map((r) => r.repo))]) line(`  ${repo}`, rows.filter((r) => r.repo === repo));
  log(`(semble, whole benchmark, cl100k_base: 348 to the first relevant, recall 0.842 / 0.923 / 0.967 at ${TOKEN_BUDGETS.join(' / ')})`);
}
