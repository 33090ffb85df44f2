import type { RankingConfig } from './config.js';
import type { Hit } from './rank.js';

/**
 * File coherence: a file with several good chunks is more likely the answer than a file with one lucky chunk,
 * so each file's best hit gains a share of the best score in proportion to the file's summed evidence.
 */
export function boostCoherentFiles(hits: Hit[], cfg: RankingConfig): void {
  if (!hits.length) return;
  const best = Math.max(...hits.map((h) => h.score));
  if (best <= 0) return;
  const sums = new Map<string, number>();
  const top = new Map<string, Hit>();
  for (const h of hits) {
    sums.set(h.file.path, (sums.get(h.file.path) ?? 0) + Math.max(0, h.score));
    const t = top.get(h.file.path);
    if (!t || h.score > t.score) top.set(h.file.path, h);
  }
  const maxSum = Math.max(...sums.values());
  if (maxSum <= 0) return;
  for (const [path, hit] of top) {
    hit.parts.coherence = best * cfg.coherenceBoost * (sums.get(path)! / maxSum);
    hit.score += hit.parts.coherence;
  }
}

/**
 * The k best hits, each file's later hits decayed: the n-th pick from a file (beyond the first `free`) keeps
 * decay^n of its score. Greedy by score; stops once nothing left can beat the k-th pick.
 */
export function selectTop(hits: Hit[], k: number, cfg: RankingConfig): Hit[] {
  const ranked = [...hits].sort(byScore);
  if (!cfg.saturation) return ranked.slice(0, k);
  const perFile = new Map<string, number>();
  let chosen: Hit[] = [];
  for (const hit of ranked) {
    // Decay only lowers scores, so once k picks beat the next raw score nothing later can enter.
    if (chosen.length >= k && hit.score <= chosen[k - 1].score) break;
    const taken = perFile.get(hit.file.path) ?? 0;
    const excess = taken - cfg.saturationFree + 1;
    chosen.push(excess > 0 ? { ...hit, score: hit.score * cfg.saturationDecay ** excess } : hit);
    perFile.set(hit.file.path, taken + 1);
    if (chosen.length >= k) chosen = chosen.sort(byScore).slice(0, k);
  }
  return chosen.sort(byScore).slice(0, k);
}

export function byScore(a: Hit, b: Hit): number {
  return b.score - a.score || (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0) || a.candidate.chunk.startLine - b.candidate.chunk.startLine;
}
