import type { SelectionSignal } from './signal.js';

const DEFAULTS = {
  /** Decay per extra chunk of a file already selected, so one file can't take every slot. */
  saturation: true,
  saturationDecay: 0.5,
  /** Chunks of a file selected before the decay begins. */
  saturationFree: 1,
};

/** Decay per extra chunk of a file already selected (beyond the first `saturationFree`), so one file can't take every slot. */
export const saturation: SelectionSignal<typeof DEFAULTS> = {
  name: 'saturation',
  stage: 'selection',
  defaults: DEFAULTS,
  keep: (taken, cfg) => {
    const excess = taken - cfg.saturationFree + 1;
    return excess > 0 ? cfg.saturationDecay ** excess : 1;
  },
};
