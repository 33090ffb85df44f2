// File-level scores of the history sets, with bootstrap intervals.
//
// A question's rank is the position, among the distinct files of the results in order, of the first file that is
// one of its answers (0 when none is in the first 10). R@k is the share of questions ranked 1..k; MRR the mean of
// 1/rank (0 when not found), i.e. MRR@10. Intervals: 1,000 resamples of the questions with replacement, seed 28,
// the 2.5th and 97.5th percentiles.

export const FILE_DEPTH = 10;
const DRAWS = 1000;
const SEED = 28;

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

/** mulberry32: a small seeded generator, so intervals are the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Interval {
  value: number;
  low: number;
  high: number;
}

export function withIntervals(ranks: number[]): Record<Metric, Interval> {
  const point = scores(ranks);
  const next = random(SEED);
  const draws: Scores[] = [];
  for (let d = 0; d < DRAWS && ranks.length; d++) draws.push(scores(ranks.map(() => ranks[Math.floor(next() * ranks.length)]!)));
  const out = {} as Record<Metric, Interval>;
  for (const m of METRICS) {
    const sorted = draws.map((s) => s[m]).sort((a, b) => a - b);
    out[m] = { value: point[m], low: sorted[Math.floor(0.025 * sorted.length)] ?? point[m], high: sorted[Math.ceil(0.975 * sorted.length) - 1] ?? point[m] };
  }
  return out;
}

export const formatInterval = (i: Interval): string => `${i.value.toFixed(3)} [${i.low.toFixed(3)}, ${i.high.toFixed(3)}]`;
