/**
 * BM25's rarity of a word held by `df` of `docs` documents (the Lucene form, never negative: a word every
 * document holds still weighs ln 1.5… above nothing). One formula for every ranking that counts rarity, whether
 * its documents are chunks, files or a query's candidate files, so they agree on what rare means.
 */
export function bm25Idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}
