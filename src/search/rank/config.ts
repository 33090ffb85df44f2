import { RANKING_SIGNALS } from './signals/index.js';

/**
 * What the signals build on: the retrievers, how their scores are fused, and the symbol table's candidates. Each
 * signal's switch and weights are its own (`defaults` in its file under `signals/`).
 */
const RETRIEVAL = {
  /** Retrievers. */
  dense: true,
  lexical: true,
  /** Resident BM25 over the view's chunks, or the store's LanceDB full-text index. */
  lexicalEngine: 'bm25' as 'bm25' | 'fts',
  bm25K1: 1.2,
  /**
   * BM25's length normalisation: a long chunk (a whole small class) loses less for its length than at the usual
   * 0.75 (benchmark / dev set / Chinese / docs hit@3: 0.75 → 0.903 / 0.846 / 0.882 / 84.0 %, 0.65 → 0.902 / 0.852 /
   * 0.883 / 85.3 %, 0.6 → 0.900 / 0.851). A pasted report keeps 0.75: the long-query set, 0.846, drops to 0.837 at 0.65.
   */
  bm25B: 0.65,
  bm25BLong: 0.75,
  /** Visible candidates taken from each retriever. */
  perSource: 150,
  /** How lexical and semantic evidence are combined: normalised score blend or reciprocal ranks. */
  fusion: 'blend' as 'blend' | 'rrf',
  /** Semantic share of the blend for bare-name queries and for sentences. */
  semanticShareName: 0.3,
  semanticShareText: 0.5,
  /**
   * Pasted reports, traces and issue texts (search/query-parts.ts) read as weighted parts, and their semantic share:
   * their names and paths are exact evidence (long-query set: NDCG@10 0.823 at 0.3, 0.820 at 0.5; hit@1 0.753 against 0.732).
   */
  longQueries: true,
  semanticShareLong: 0.3,
  /** Candidates from the symbol table: every definition of a name the query gives. */
  symbols: true,
};

/** The settings of the signals of a list, one intersection. */
type SettingsOf<L extends readonly unknown[]> = L extends readonly [{ defaults: infer S }, ...infer Rest] ? S & SettingsOf<Rest> : unknown;

type Flat<T> = { [K in keyof T]: T[K] };

/**
 * The ranking stack's switches and weights: the retrieval settings above, then every signal's (`RANKING_SIGNALS`).
 * Every signal can be turned off on its own, so the benchmark can measure what each one is worth (`npm run eval --
 * --ablate`); the defaults are the measured best, and a setting no set supports is removed (docs/retrieval.md).
 */
export interface RankingConfig extends Flat<typeof RETRIEVAL & SettingsOf<typeof RANKING_SIGNALS>> {}

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
