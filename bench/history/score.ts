// File-level scores of the history sets, with bootstrap intervals.
//
// A question's rank is the position, among the distinct files of the results in order, of the first file that is
// one of its answers (0 when none is in the first 10). R@k is the share of questions ranked 1..k; MRR the mean of
// 1/rank (0 when not found), i.e. MRR@10. Intervals: bench/bootstrap.ts (questions resampled).

import { bootstrap, formatInterval, type Interval } from '../bootstrap.js';

export const FILE_DEPTH = 10;

export const METRICS = ['r1', 'r5', 'r10', 'mrr'] as const;
export type Metric = (typeof METRICS)[number];
export type Scores = Record<Metric, number>;

/** Distinct files in the order results first name them, at most FILE_DEPTH. */
export function distinctFiles(paths: string[]): string[] {
  const out: string[] = [];
  for (const p of paths) if (!out.includes(p) && out.push(p) >= FILE_DEPTH) break;
  return out;
}

export function rankOf(files: string[], answers: string[]): number {
  const i = distinctFiles(files).findIndex((f) => answers.includes(f));
  return i < 0 ? 0 : i + 1;
}

export function scores(ranks: number[]): Scores {
  const n = ranks.length || 1;
  const within = (k: number) => ranks.filter((r) => r > 0 && r <= k).length / n;
  return { r1: within(1), r5: within(5), r10: within(10), mrr: ranks.reduce((a, r) => a + (r > 0 ? 1 / r : 0), 0) / n };
}

export function withIntervals(ranks: number[]): Record<Metric, Interval> {
  return bootstrap(ranks, scores);
}

export { formatInterval, type Interval };
