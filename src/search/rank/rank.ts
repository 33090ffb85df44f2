import type { Candidate } from '../candidates.js';
import type { RankingConfig } from './config.js';
import type { Hit } from './hit.js';
import { RANKING_SIGNALS } from './signals/index.js';
import { isOn, type BoostSignal, type HitSite, type PenaltySignal, type QueryScope, type RankingSignal } from './signals/signal.js';

/** A candidate chunk at one of its paths, with its ranking score. */
/**
 * Scores every (file, chunk) pair: fused relevance plus the boost signals, times the penalty signals. Boosts are
 * scaled by the best fused score so they mean the same for every query.
 */
export function scoreHits(fused: Map<Candidate, number>, scope: QueryScope, signals: readonly RankingSignal[] = RANKING_SIGNALS): Hit[] {
  const { cfg } = scope;
  let best = 0;
  for (const v of fused.values()) best = Math.max(best, v);
  const unit = best || 1;
  const on = signals.filter((s) => isOn(s, cfg));
  const boosts = on.filter((s): s is BoostSignal => s.stage === 'boost').map((s) => ({ name: s.name, weight: s.weight(cfg), strength: s.prepare(scope) }));
  const penalties = on.filter((s): s is PenaltySignal => s.stage === 'penalty').map((s) => s.prepare(scope));
  const hits: Hit[] = [];
  // Each hit's parts start as a copy of one neutral set: the same names in the same order, made once per query.
  const neutral = emptyParts(signals);
  for (const [candidate, base] of fused) {
    for (const file of candidate.files) {
      const site: HitSite = { candidate, file, parts: { ...neutral } };
      let score = base;
      for (const boost of boosts) {
        const part = unit * boost.weight * boost.strength(site);
        site.parts[boost.name] = part;
        score += part;
      }
      for (const penalty of penalties) site.parts.penalty *= penalty(site);
      hits.push({ candidate, file, base, score: score * site.parts.penalty, parts: site.parts });
    }
  }
  return hits;
}

/** Every part at its neutral value, in list order, so `--explain` shows the same columns for every hit. */
function emptyParts(signals: readonly RankingSignal[]): Hit['parts'] {
  const parts: Hit['parts'] = {};
  for (const s of signals) if (s.stage === 'boost') parts[s.name] = 0;
  parts.penalty = 1;
  for (const s of signals) if (s.stage === 'hits') parts[s.name] = 0;
  return parts;
}

/** The whole-list stages (file coherence), in list order, on hits already scored. */
export function rescoreHits(hits: Hit[], cfg: RankingConfig, signals: readonly RankingSignal[] = RANKING_SIGNALS): void {
  for (const s of signals) if (s.stage === 'hits' && isOn(s, cfg)) s.apply(hits, cfg);
}
