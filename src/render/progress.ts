/** How an index run's recent pace reads: `132 chunks/s`, or nothing in a phase that stores no chunks. */
export function rateText(chunksPerSecond: number | null): string {
  return chunksPerSecond === null ? '' : `${Math.round(chunksPerSecond)} chunks/s`;
}

/** The time left of a run as people read it: `~40 s left`, `~3 min left`; nothing when it is not known. */
export function timeLeftText(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '';
  return seconds < 90 ? `~${Math.max(1, Math.round(seconds))} s left` : `~${Math.round(seconds / 60)} min left`;
}
