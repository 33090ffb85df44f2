import type { PenaltySignal } from './signal.js';

/** Files under an older `vN/` beside a newer one: kept for compatibility, rarely the answer. */
export const legacy: PenaltySignal = {
  name: 'legacy',
  stage: 'penalty',
  prepare: ({ q, cfg }) => (hit) => (hit.file.legacy && !q.wantsLegacy ? cfg.legacyPenalty : 1),
};
