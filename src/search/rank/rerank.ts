import type { Hit } from './hit.js';

/**
 * A ranking stage that may take time and runs after every signal: a model that reads the question and each
 * chunk together (a cross-encoder) and scores them again. It sees only the best `depth` hits, because reading
 * a pair costs far more than the signals' arithmetic; the rest keep their order below them. Off unless a caller
 * passes one (`SearchOptions.reranker`): ocrag ships none yet, this is where one goes.
 */
export interface Reranker {
  /** Named in logs and in `--explain` (`parts.rerank`). */
  readonly name: string;
  /** How many of the best-scored hits it reads. */
  readonly depth: number;
  /** A score per passage, in their order, higher is better (any scale: only the order is used). */
  score(query: string, passages: readonly RerankPassage[]): Promise<number[]>;
}

/** What a reranker reads of one hit: where it is and its text. */
export interface RerankPassage {
  path: string;
  symbol: string;
  text: string;
}

/**
 * The hits with the best `depth` reordered by the reranker's scores. Their new scores are the reranker's order laid
 * over the span of their old ones (the lowest of them stays the lowest), so every hit below keeps its place and
 * the scale that `relevance` and `--min-score` read stays the signals' own. A reranker that answers with the
 * wrong number of scores, or not a finite one, fails the search: a reordering it never said is never shown.
 */
export async function rerankHits(hits: Hit[], query: string, reranker: Reranker): Promise<Hit[]> {
  const ranked = [...hits].sort((a, b) => b.score - a.score);
  const top = ranked.slice(0, Math.max(0, reranker.depth));
  if (top.length < 2) return ranked;
  const passages = top.map((h) => ({ path: h.file.path, symbol: h.candidate.chunk.symbol, text: h.candidate.chunk.text }));
  const scores = await reranker.score(query, passages);
  if (scores.length !== top.length || !scores.every(Number.isFinite)) throw new Error(`reranker ${reranker.name} gave ${scores.length} scores for ${top.length} passages, or one that is not a number`);
  const order = top.map((hit, i) => ({ hit, by: scores[i] })).sort((a, b) => b.by - a.by);
  const olds = top.map((h) => h.score).sort((a, b) => b - a);
  const reordered = order.map(({ hit, by }, i) => ({ ...hit, score: olds[i], parts: { ...hit.parts, rerank: by } }));
  return [...reordered, ...ranked.slice(top.length)];
}
