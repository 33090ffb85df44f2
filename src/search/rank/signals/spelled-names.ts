import { stemNamesSymbol } from './path-words.js';
import type { BoostSignal } from './signal.js';

const DEFAULTS = {
  /**
   * The file defining a name the query spells as words (`JSON element` → `JsonElement.java`, `parser settings` →
   * `ParserSettings.cs`), every chunk of it: the file is about the name, and its best chunk for the query stays its
   * best (a boost to the definition alone put a class's head above the method asked about: dev set 0.845 → 0.836).
   * Measured (benchmark / dev set): off 0.894 / 0.845, 0.3 → 0.901 / 0.846, 0.45 → 0.902 / 0.846, 0.75 → 0.900 / 0.843.
   */
  spelledNames: true,
  spelledNameBoost: 0.45,
  /**
   * Share for a file not named after the name (`ActionCreator` in `types/actions.ts`): prose spells generic pairs
   * too (`validation error`). Measured: 0 → 0.899 / 0.847, 0.5 → 0.902 / 0.846, 1 → 0.901 / 0.843.
   */
  spelledNameUnnamedFile: 0.5,
};

/** Files defining a name the query spells as separate words (`CandidatePool.spelled`, search/spelled-names.ts). */
export const spelledNames: BoostSignal<typeof DEFAULTS> = {
  name: 'spelledNames',
  stage: 'boost',
  defaults: DEFAULTS,
  weight: (cfg) => cfg.spelledNameBoost,
  prepare: ({ cfg, candidates }) => {
    const { names, blobs } = candidates.spelled;
    if (!blobs.size) return () => 0;
    return (hit) => {
      if (!blobs.has(hit.candidate.chunk.blob)) return 0;
      return names.some((name) => stemNamesSymbol(hit.file, name)) ? 1 : cfg.spelledNameUnnamedFile;
    };
  },
};
