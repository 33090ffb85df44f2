import type { PenaltySignal } from './signal.js';

const DEFAULTS = {
  /** Files under an older `vN/` beside a newer one, unless the query asks for the old version. */
  legacy: true,
  legacyPenalty: 0.5,
};

/** Files under an older `vN/` beside a newer one: kept for compatibility, rarely the answer. */
export const legacy: PenaltySignal<typeof DEFAULTS> = {
  name: 'legacy',
  stage: 'penalty',
  defaults: DEFAULTS,
  prepare: ({ q, cfg }) => (hit) => (hit.file.legacy && !q.wantsLegacy ? cfg.legacyPenalty : 1),
};
