import { isBarrel } from '../barrels.js';
import type { PenaltySignal } from './signal.js';

/** Chunks that only forward whole modules. */
export const barrels: PenaltySignal = {
  name: 'barrels',
  stage: 'penalty',
  // Unless it re-exports a name the query gives: then it may be the answer (the definition can live in another package).
  prepare: ({ cfg }) => (hit) => ((hit.parts.definitions ?? 0) === 0 && isBarrel(hit.candidate.chunk.text) ? cfg.barrelPenalty : 1),
};
