import { hasCjk } from '../../../text/scripts.js';
import { stem } from '../../../text/stem.js';
import { fileTermCounts, type VisibleChunks } from '../../lexical.js';
import type { ResidentChunks } from '../../resident.js';
import type { PenaltySignal } from './signal.js';
import { bm25Idf } from '../../../text/bm25.js';

const DEFAULTS = {
  /**
   * How much of what a query is about a file holds anywhere: the share of the query's words (`QueryInfo.concepts`,
   * each found by any of its spellings), weighted by how few files hold them. A Chinese word reaches code in two
   * spellings, its characters (comments, UI strings) and its English senses (identifiers), and chunk BM25 scores
   * them as unrelated terms; here a word counts once, whichever way a file says it. Written against the history
   * sets (Chinese commit subjects → the files they changed), Chinese R@5 0.607 → 0.633 [+0.015, +0.038]; a word
   * found by its characters only 0.613, by its English only 0.624: the two spellings together make the gain.
   */
  fileCoverage: true,
  /**
   * Each hit × (1 + weight × its file's coverage) / (1 + weight): a file holding every word keeps its score, one
   * holding none keeps 1/(1 + weight). History Chinese R@5 at 0.5 / 0.8 / 1.2 / 1.6: 0.626 / 0.633 / 0.632 / 0.629.
   */
  fileCoverageWeight: 0.8,
  /**
   * Only for queries written in Chinese, Japanese or Korean. For English ones it gave the history sets +0.007 but
   * cost the public benchmark −0.011 [−0.022, −0.001] and the dev set −0.009: a question on what code does asks
   * for the one small file that does it, and the files holding most of its words are the large ones around it.
   */
  fileCoverageCjkOnly: true,
};

/** Files holding more of the query's words, wherever in them and however spelled, rank higher. */
export const fileCoverage: PenaltySignal<typeof DEFAULTS> = {
  name: 'fileCoverage',
  stage: 'penalty',
  defaults: DEFAULTS,
  prepare: ({ q, cfg, candidates: { resident, visible } }) => {
    if (!q.concepts.length) return () => 1;
    if (cfg.fileCoverageCjkOnly && !hasCjk(q.text)) return () => 1;
    const coverage = conceptCoverage(resident, visible, q.concepts);
    const w = cfg.fileCoverageWeight;
    return (hit) => (1 + w * (coverage.get(hit.file.blob) ?? 0)) / (1 + w);
  },
};

/**
 * Per blob, the idf-weighted share of the concepts it holds (0..1): a concept's weight is its inverse document
 * frequency over the view's files, counting a file once whichever of the concept's terms it holds.
 */
export function conceptCoverage(resident: ResidentChunks, visible: VisibleChunks, concepts: readonly (readonly string[])[]): Map<string, number> {
  const files = visible.fileLength.size;
  const held = new Map<string, number>();
  let total = 0;
  for (const concept of concepts) {
    const blobs = new Set<string>();
    for (const stemmed of new Set(concept.map(stem))) for (const blob of fileTermCounts(resident, visible, stemmed).keys()) blobs.add(blob);
    if (!blobs.size) continue;
    const idf = bm25Idf(files, blobs.size);
    total += idf;
    for (const blob of blobs) held.set(blob, (held.get(blob) ?? 0) + idf);
  }
  if (total > 0) for (const [blob, v] of held) held.set(blob, v / total);
  return held;
}
