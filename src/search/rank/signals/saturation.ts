import type { SelectionSignal } from './signal.js';

/** Decay per extra chunk of a file already selected (beyond the first `saturationFree`), so one file can't take every slot. */
export const saturation: SelectionSignal = {
  name: 'saturation',
  stage: 'selection',
  keep: (taken, cfg) => {
    const excess = taken - cfg.saturationFree + 1;
    return excess > 0 ? cfg.saturationDecay ** excess : 1;
  },
};
