import { centrality as fileCentrality } from '../centrality.js';
import type { BoostSignal } from './signal.js';

/** Files whose top-level names many other files mention (hubs). */
export const centrality: BoostSignal = {
  name: 'centrality',
  stage: 'boost',
  weight: (cfg) => cfg.centralityBoost,
  prepare: ({ candidates }) => {
    const hubs = fileCentrality(candidates.resident, candidates.visible);
    return (hit) => hubs.get(hit.file.blob) ?? 0;
  },
};
