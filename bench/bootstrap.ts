// Bootstrap 95 % intervals for every benchmark's numbers, the same on every run.
//
// 1,000 draws with a fixed seed (28): enough for the second decimal of a percentile of a mean over a few hundred
// questions, and cheap. Questions are resampled with replacement; where a figure is a mean over groups of means
// (the semble benchmark's mean over repositories), each group is resampled on its own, so every draw keeps every
// repository and its number of questions.

import { rng as random } from '../fixtures/synthetic-repo.js';

const DRAWS = 1000;
const SEED = 28;

export interface Interval {
  value: number;
  low: number;
  high: number;
}

/** Intervals of several statistics of one sample, each from the same draws. */
export function bootstrap<T, K extends string>(sample: T[], stat: (xs: T[]) => Record<K, number>): Record<K, Interval> {
  return stratified([sample], (groups) => stat(groups[0]!));
}

/** Intervals of statistics over groups, each group resampled within itself. */
export function stratified<T, K extends string>(groups: T[][], stat: (groups: T[][]) => Record<K, number>): Record<K, Interval> {
  const point = stat(groups);
  const next = random(SEED);
  const draws: Record<K, number>[] = [];
  if (groups.some((g) => g.length > 0)) {
    for (let d = 0; d < DRAWS; d++) draws.push(stat(groups.map((g) => g.map(() => g[Math.floor(next() * g.length)]!))));
  }
  const out = {} as Record<K, Interval>;
  for (const k of Object.keys(point) as K[]) {
    const sorted = draws.map((s) => s[k]).sort((a, b) => a - b);
    out[k] = { value: point[k], low: sorted[Math.floor(0.025 * sorted.length)] ?? point[k], high: sorted[Math.ceil(0.975 * sorted.length) - 1] ?? point[k] };
  }
  return out;
}

export const formatInterval = (i: Interval): string => `${i.value.toFixed(3)} [${i.low.toFixed(3)}, ${i.high.toFixed(3)}]`;

export const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
