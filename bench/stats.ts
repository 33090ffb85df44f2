// The summaries bench scripts print: a percentile by the nearest rank below, and the median as its 50th.

/** The value at `p` percent of the sorted values (the upper middle one for 50); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export const median = (values: readonly number[]): number => percentile(values, 50);
