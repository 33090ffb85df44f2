/**
 * What the signals build on: the retrievers, how their scores are fused, and the symbol table's candidates. Each
 * signal's switch and weights are its own (`defaults` in its file under `signals/`).
 */
export const RETRIEVAL = {
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
  /**
   * A CJK question's words read through the view's tables of UI strings (search/locale-bridge.ts): the keys and
   * English of the entries whose Chinese it writes join its BM25 words at this weight (0: off), so the code that
   * shows a string ranks, not the table that holds it. History sets, the four Chinese projects with tables (492
   * questions), R@5: +0.016 at 0.7, +0.026 at 1, +0.033 at 1.5, +0.026 at 2.
   */
  localeBridge: 1.5,
};

/** The retrieval settings, as a signal that reads some of them declares (`R` of its type in signals/signal.ts). */
export type RetrievalSettings = typeof RETRIEVAL;
