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
   * too (`validation error`). Measured: 0 → 0.899 / 0.847, 0.5 → 0.902 / 0.846, 1 → 0.901 / 0.843. A name several
   * files define gives this share to none of them, only the full boost to a file named after it (`JsonReader.java`
   * beside a `jsonReader` elsewhere): with any number of files 0.898 / 0.843, with one file only 0.902 / 0.852,
   * with this 0.904 / 0.852 (BM25's b at 0.65).
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
    const { byBlob, shared } = candidates.spelled;
    if (!byBlob.size) return () => 0;
    return (hit) => {
      const names = byBlob.get(hit.candidate.chunk.blob);
      if (!names) return 0;
      if (names.some((name) => stemNamesSymbol(hit.file, name))) return 1;
      return names.some((name) => !shared.has(name)) ? cfg.spelledNameUnnamedFile : 0;
    };
  },
};
