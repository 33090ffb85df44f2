import { RETRIEVAL } from './retrieval.js';
import { RANKING_SIGNALS } from './signals/index.js';

/** The settings of the signals of a list, one intersection. */
type SettingsOf<L extends readonly unknown[]> = L extends readonly [{ defaults: infer S }, ...infer Rest] ? S & SettingsOf<Rest> : unknown;

type Flat<T> = { [K in keyof T]: T[K] };

/**
 * The ranking stack's switches and weights: the retrieval settings above, then every signal's (`RANKING_SIGNALS`).
 * Every signal can be turned off on its own, so the benchmark can measure what each one is worth (`npm run eval --
 * --ablate`); the defaults are the measured best, and a setting no set supports is removed (docs/retrieval.md).
 */
export type RankingConfig = Flat<typeof RETRIEVAL & SettingsOf<typeof RANKING_SIGNALS>>;

/** The `RankingConfig` keys that are on/off switches. */
export type RankingSwitch = { [K in keyof RankingConfig]: RankingConfig[K] extends boolean ? K : never }[keyof RankingConfig];

export const DEFAULT_RANKING: Readonly<RankingConfig> = Object.freeze(defaults());

function defaults(): RankingConfig {
  const out: Record<string, unknown> = { ...RETRIEVAL };
  for (const signal of RANKING_SIGNALS) {
    for (const [key, value] of Object.entries(signal.defaults)) {
      // One key, one meaning: a second signal declaring it would silently change the first one's weight.
      if (key in out) throw new Error(`ranking setting "${key}" is declared twice`);
      out[key] = value;
    }
  }
  return out as RankingConfig;
}
