import type { Candidate } from '../candidates.js';
import type { QueryInfo } from '../query.js';
import type { ViewFile } from '../view.js';
import { reexportShare } from './barrels.js';
import type { RankingConfig } from './config.js';
import { definitionStrength } from './definitions.js';
import { pathRole } from './path-roles.js';
import { pathMatch, stemNamesSymbol } from './path-words.js';

/** A candidate chunk at one of its paths, with its ranking score. */
export interface Hit {
  candidate: Candidate;
  file: ViewFile;
  /** Fused relevance before boosts (0..1). */
  base: number;
  score: number;
}

/**
 * Scores every (file, chunk) pair: fused relevance, plus boosts for defining a queried name and for path words
 * matching the query, times penalties for files that are not the implementation. Boosts are scaled by the
 * best fused score so they mean the same for every query.
 */
export function scoreHits(fused: Map<Candidate, number>, q: QueryInfo, cfg: RankingConfig): Hit[] {
  let best = 0;
  for (const v of fused.values()) best = Math.max(best, v);
  const unit = best || 1;
  const hits: Hit[] = [];
  for (const [candidate, base] of fused) {
    for (const file of candidate.files) {
      let score = base;
      if (cfg.definitions) score += unit * cfg.definitionBoost * definitionTier(candidate, file, q);
      if (cfg.pathWords && !q.isName) {
        const match = pathMatch(q.keywords, file);
        if (match >= 0.1) score += unit * cfg.pathBoost * match;
      }
      if (cfg.penalties) score *= pathPenalty(file.path, q);
      if (cfg.barrels && reexportShare(candidate.chunk.text) >= 0.8) score *= 0.5;
      hits.push({ candidate, file, base, score });
    }
  }
  return hits;
}

/** 1 for the definition of a queried name (1.5 in a file named after it), less for its members; halved in sentences. */
function definitionTier(c: Candidate, file: ViewFile, q: QueryInfo): number {
  let tier = 0;
  for (const name of q.symbols) {
    const strength = definitionStrength(c.chunk.symbol, c.chunk.text, name);
    if (strength === 'none') continue;
    let t = strength === 'defines' ? 1 : 0.3;
    if (stemNamesSymbol(file, name)) t *= 1.5;
    tier = Math.max(tier, t);
  }
  return q.isName ? tier : tier * 0.5;
}

const cachedPenalty = new Map<string, number>();

export function pathPenalty(path: string, q: QueryInfo): number {
  const key = `${q.wantsTests ? 1 : 0}${q.wantsExamples ? 1 : 0}${path}`;
  let p = cachedPenalty.get(key);
  if (p === undefined) {
    const role = pathRole(path);
    p = 1;
    if (role.test && !q.wantsTests) p *= 0.3;
    if (role.example && !q.wantsExamples) p *= 0.3;
    if (role.secondary) p *= 0.3;
    if (role.declaration) p *= 0.7;
    if (role.packageMarker) p *= 0.5;
    if (cachedPenalty.size > 50_000) cachedPenalty.clear();
    cachedPenalty.set(key, p);
  }
  return p;
}
