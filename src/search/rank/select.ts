import type { RankingConfig } from './config.js';
import type { Hit } from './hit.js';
import { RANKING_SIGNALS } from './signals/index.js';
import { isOn, type RankingSignal, type SelectionSignal } from './signals/signal.js';

/**
 * The k best hits, each file's later hits keeping only the share of their score the selection signals allow
 * (saturation: the n-th pick from a file beyond the first few keeps decay^n). Greedy by score; stops once nothing
 * left can beat the k-th pick.
 */
export function selectTop(hits: Hit[], k: number, cfg: RankingConfig, signals: readonly RankingSignal[] = RANKING_SIGNALS): Hit[] {
  const ranked = [...hits].sort(byScore);
  const selection = signals.filter((s): s is SelectionSignal => s.stage === 'selection' && isOn(s, cfg));
  if (!selection.length) return ranked.slice(0, k);
  const perFile = new Map<string, number>();
  let chosen: Hit[] = [];
  for (const hit of ranked) {
    // A selection signal only lowers scores, so once k picks beat the next raw score nothing later can enter.
    if (chosen.length >= k && hit.score <= chosen[k - 1].score) break;
    const taken = perFile.get(hit.file.path) ?? 0;
    const keep = selection.reduce((share, s) => share * s.keep(taken, cfg), 1);
    chosen.push(keep !== 1 ? { ...hit, score: hit.score * keep } : hit);
    perFile.set(hit.file.path, taken + 1);
    if (chosen.length >= k) chosen = chosen.sort(byScore).slice(0, k);
  }
  return chosen.sort(byScore).slice(0, k);
}

export function byScore(a: Hit, b: Hit): number {
  return b.score - a.score || (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0) || a.candidate.chunk.startLine - b.candidate.chunk.startLine;
}
