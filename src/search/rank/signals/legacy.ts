import type { PenaltySignal } from './signal.js';

const DEFAULTS = {
  /** Files under an older `vN/` beside a newer one, unless the query asks for the old version. */
  legacy: true,
  legacyPenalty: 0.5,
};

/**
 * Files under an older `vN/` beside a newer one: kept for compatibility, rarely the answer. A query that names the
 * old version (`v3 compatibility error types`) asks for its files; one that names the current one (`classic Zod v4
 * string schema`) asks for the current files, and the old ones stay below.
 */
export const legacy: PenaltySignal<typeof DEFAULTS> = {
  name: 'legacy',
  stage: 'penalty',
  defaults: DEFAULTS,
  prepare: ({ q, cfg }) => (hit) => (hit.file.legacy && !q.wantsLegacy && !underVersion(hit.file.display, q.versions) ? cfg.legacyPenalty : 1),
};

/** Whether the path lies under a `vN/` directory of a version the query names. */
function underVersion(path: string, versions: number[]): boolean {
  return versions.length > 0 && [...path.matchAll(/(?:^|\/)v(\d+)\//g)].some((m) => versions.includes(Number(m[1])));
}
