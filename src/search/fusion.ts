import type { Candidate } from './candidates.js';
import type { QueryInfo } from './query.js';
import type { RetrievalSettings } from './rank/retrieval.js';

/**
 * One relevance number per candidate from semantic and lexical evidence, in 0..1. Blend: cosine min-max
 * normalised over the candidates, BM25 divided by the best BM25, mixed by a share that depends on the query
 * (a bare name leans on exact words, a sentence on meaning). RRF: reciprocal ranks, for comparison. Pure.
 */
export function fuse(pool: Iterable<Candidate>, q: QueryInfo, cfg: Readonly<RetrievalSettings>): Map<Candidate, number> {
  const list = [...pool];
  const out = new Map<Candidate, number>();
  if (!list.length) return out;
  const share = semanticShare(q, cfg);
  if (cfg.fusion === 'rrf') {
    const K = 60;
    const rr = (rank: number) => (rank < 0 ? 0 : 1 / (K + rank + 1));
    for (const c of list) out.set(c, ((share * rr(c.denseRank) + (1 - share) * rr(c.lexicalRank)) * (K + 1)));
    return out;
  }
  let lo = Infinity;
  let hi = -Infinity;
  let best = 0;
  for (const c of list) {
    lo = Math.min(lo, c.cosine);
    hi = Math.max(hi, c.cosine);
    best = Math.max(best, c.bm25);
  }
  const span = hi - lo || 1;
  for (const c of list) out.set(c, share * ((c.cosine - lo) / span) + (1 - share) * (best > 0 ? c.bm25 / best : 0));
  return out;
}

export function semanticShare(q: QueryInfo, cfg: Pick<RetrievalSettings, 'lexical' | 'dense' | 'semanticShareName' | 'semanticShareLong' | 'semanticShareText'>): number {
  if (!cfg.lexical) return 1;
  if (!cfg.dense) return 0;
  return q.isName ? cfg.semanticShareName : q.long ? cfg.semanticShareLong : cfg.semanticShareText;
}
