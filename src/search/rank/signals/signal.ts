import type { Candidate, CandidatePool } from '../../candidates.js';
import type { QueryInfo } from '../../query.js';
import type { SearchView, ViewFile } from '../../view.js';
import type { Hit } from '../hit.js';

/** A signal's part of `RankingConfig`: its switch and the weights it reads, each with its default. */
export type SignalSettings = Record<string, boolean | number>;

/** Any ranking config, as code that runs every signal holds it (the whole `RankingConfig`). */
type AnySettings = Readonly<Record<string, unknown>>;

/** The switches among a signal's settings (any name, for a signal whose settings are not known). */
type SwitchOf<S extends object> = string extends keyof S ? string : { [K in keyof S]: S[K] extends boolean ? K : never }[keyof S] & string;

/**
 * Everything a signal may look at once per query, before any hit is scored. `cfg` is the whole ranking config
 * (`RankingConfig`, made from every signal's defaults), seen by each signal as its own settings: a signal reads
 * only what it declares, and this file needs nothing of `../config.ts`, which is made from the signals.
 */
export interface QueryScope<C extends object = AnySettings> {
  q: QueryInfo;
  cfg: Readonly<C>;
  view: SearchView;
  candidates: CandidatePool;
}

/** A candidate chunk at one of its paths, with the boosts it has been given so far. */
export interface HitSite {
  candidate: Candidate;
  file: ViewFile;
  parts: Hit['parts'];
}

/** `S`: the settings a signal declares; `R` (in each kind): others it reads too (another signal's, retrieval's). */
interface SignalBase<S extends object> {
  /** Its switch in `RankingConfig`, its row in `--ablate`, and (for boosts and file stages) its part in `--explain`. */
  name: SwitchOf<S>;
  /**
   * Its switch and every weight it reads, with their defaults (the measured best) and a comment each: its part of
   * `RankingConfig` and `DEFAULT_RANKING` (`../config.ts`), where no other signal may declare the same key.
   */
  defaults: S;
}

/** Adds the best fused score × `weight` × strength to each hit; boosts add up, in list order. */
export interface BoostSignal<S extends object = AnySettings, R extends object = object> extends SignalBase<S> {
  stage: 'boost';
  weight(cfg: Readonly<S & R>): number;
  /** Called once per query; the function returned gives each hit's strength (0 for none). */
  prepare(scope: QueryScope<S & R>): (hit: HitSite) => number;
}

/** Multiplies each hit's boosted score by a factor (1 for none); runs after every boost, so it may see them. */
export interface PenaltySignal<S extends object = AnySettings, R extends object = object> extends SignalBase<S> {
  stage: 'penalty';
  prepare(scope: QueryScope<S & R>): (hit: HitSite) => number;
}

/** Rescores the scored hits together (a file's hits as evidence for its best one). */
export interface HitsSignal<S extends object = AnySettings, R extends object = object> extends SignalBase<S> {
  stage: 'hits';
  apply(hits: Hit[], cfg: Readonly<S & R>): void;
}

/** Shapes the choice of the top k: the share of its score a hit keeps (≤ 1) when `taken` hits of its file are in. */
export interface SelectionSignal<S extends object = AnySettings, R extends object = object> extends SignalBase<S> {
  stage: 'selection';
  keep(taken: number, cfg: Readonly<S & R>): number;
}

export type RankingSignal = BoostSignal | PenaltySignal | HitsSignal | SelectionSignal;

/** Whether the signal's switch is on in a config holding every signal's settings. */
export function isOn(signal: RankingSignal, cfg: AnySettings): boolean {
  return cfg[signal.name] === true;
}

/**
 * `of` a chunk's text, worked out once per chunk held: a resident set's chunk objects stay the same query after
 * query, and every query whose candidates hold one asked again.
 */
export function perChunk<T>(of: (text: string) => T): (chunk: { readonly text: string }) => T {
  const known = new WeakMap<object, T>();
  return (chunk) => {
    if (known.has(chunk)) return known.get(chunk)!;
    const value = of(chunk.text);
    known.set(chunk, value);
    return value;
  };
}
