/**
 * Milliseconds on a monotonic clock, counted as `performance.now()` counts them but from another origin. A one-shot
 * search times itself with this: Node loads its performance module on the first use of `performance`, a few ms of
 * a search a running server answers (issue 31).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
