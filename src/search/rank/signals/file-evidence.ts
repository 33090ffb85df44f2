import { lengthNormalisation, type CandidatePool } from '../../candidates.js';
import { fileBm25 } from '../../lexical.js';
import type { QueryInfo } from '../../query.js';
import type { RetrievalSettings } from '../retrieval.js';
import { semanticShare } from '../../fusion.js';
import type { BoostSignal } from './signal.js';

const DEFAULTS = {
  /**
   * Whole-file evidence (file-as-document BM25, best chunk cosine) added to each of the file's chunks. For every
   * query it measured no gain (benchmark 0.885 → 0.885: architecture 0.866 → 0.878, semantic 0.861 → 0.853).
   */
  fileEvidence: true,
  fileBoost: 0.3,
  /**
   * Only for questions about how the code works (`asksHowItWorks`), which a file answers as a whole: one that holds
   * every word of the question somewhere, not only in its best chunk. Measured at 0.3 (off → on): benchmark 0.885 →
   * 0.886 (architecture 0.866 → 0.869), dev set 0.829 → 0.831 (architecture 0.836 → 0.848), Chinese 0.862 → 0.862;
   * 0.4 the same, 0.6 worse (0.884, 0.830). The query's own blend of words and meaning beats either alone.
   */
  fileEvidenceQuestionsOnly: true,
};

/** Whole-file evidence (file-as-document BM25, best chunk cosine) added to each of the file's chunks. */
export const fileEvidence: BoostSignal<typeof DEFAULTS, RetrievalSettings> = {
  name: 'fileEvidence',
  stage: 'boost',
  defaults: DEFAULTS,
  weight: (cfg) => cfg.fileBoost,
  prepare: ({ q, cfg, candidates }) => {
    if (cfg.fileEvidenceQuestionsOnly && (q.isName || !q.asksHowItWorks)) return () => 0;
    const files = wholeFileEvidence(candidates, q, cfg);
    return (hit) => files.get(hit.file.blob) ?? 0;
  },
};

/**
 * How well each whole file answers the query, 0..1 per blob: BM25 with the file as one document (it covers every
 * query word somewhere, not only in one chunk) blended with its best chunk's cosine, as chunks are blended.
 * Answers are files more often than single chunks, and a file's other chunks are evidence for its best one.
 */
function wholeFileEvidence(p: CandidatePool, q: QueryInfo, cfg: Readonly<RetrievalSettings>): Map<string, number> {
  const share = semanticShare(q, cfg);
  const lexical = cfg.lexical ? fileBm25(p.resident, p.visible, q.terms, { k1: cfg.bm25K1, b: lengthNormalisation(q, cfg) }, q.termWeights) : new Map<string, number>();
  const bestCosine = new Map<string, number>();
  for (const i of p.visible.chunks) {
    const blob = p.resident.info[i].blob;
    const c = p.cosine[i];
    if (c > (bestCosine.get(blob) ?? -Infinity)) bestCosine.set(blob, c);
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of bestCosine.values()) {
    lo = Math.min(lo, c);
    hi = Math.max(hi, c);
  }
  const topLexical = Math.max(0, ...lexical.values()) || 1;
  const out = new Map<string, number>();
  for (const [blob, c] of bestCosine) {
    const dense = cfg.dense ? (c - lo) / (hi - lo || 1) : 0;
    out.set(blob, share * dense + (1 - share) * (lexical.get(blob) ?? 0) / topLexical);
  }
  return out;
}
