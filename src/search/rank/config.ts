/**
 * The ranking stack's switches and weights. Every signal (`signals/index.ts`) can be turned off on its own, so the benchmark
 * can measure what each one is worth (`npm run eval -- --ablate`); the defaults are the measured best. Components
 * off by default (whole-file evidence, centrality, path-word IDF) measured no gain and stay for the ablation.
 */
export interface RankingConfig {
  /** Retrievers. */
  dense: boolean;
  lexical: boolean;
  /** Resident BM25 over the view's chunks, or the store's LanceDB full-text index. */
  lexicalEngine: 'bm25' | 'fts';
  bm25K1: number;
  bm25B: number;
  /** Visible candidates taken from each retriever. */
  perSource: number;
  /** How lexical and semantic evidence are combined: normalised score blend or reciprocal ranks. */
  fusion: 'blend' | 'rrf';
  /** Semantic share of the blend for bare-name queries and for sentences. */
  semanticShareName: number;
  semanticShareText: number;
  /** Candidates from the symbol table: every definition of a name the query gives. */
  symbols: boolean;
  /** Chunks defining a name the query gives (`Router`, or `ZodType` inside a sentence). */
  definitions: boolean;
  definitionBoost: number;
  /** Definition tiers, as shares of the boost: a definition line in the text or a re-export, and a member of it. */
  definitionTextTier: number;
  definitionMemberTier: number;
  /** Factor for a definition written with the qualified name the query gives (`function app.set` for `app.set`). */
  qualifiedDefinitionFactor: number;
  /** Factor for a definition in a file named after it (`routergroup.go` for `RouterGroup`). */
  namedFileDefinitionFactor: number;
  /** Factor on the definition boost when the name comes inside a sentence rather than alone. */
  definitionInSentenceFactor: number;
  /** Files whose path words match the query's words. */
  pathWords: boolean;
  pathBoost: number;
  /** Path matches weaker than this share of the query's words add nothing. */
  pathMinMatch: number;
  /** A match in the file's directory, relative to one in its name; and weighing query words by path rarity. */
  pathDirWeight: number;
  /** Weight of a match one or two directories above the file's own. */
  pathAboveWeight: number;
  pathIdf: boolean;
  pathInformativeOnly: boolean;
  /** Down-weighting: tests, examples, vendored copies, declaration stubs, package markers (by path); prose and config
   * files (by language); files under an older `vN/` beside a newer one; chunks that only forward whole modules. */
  penalties: boolean;
  prose: boolean;
  legacy: boolean;
  barrels: boolean;
  /** Factors of the path-role penalties, each applied unless the query asks for that kind of file. */
  testPenalty: number;
  examplePenalty: number;
  /** Vendored, generated and compatibility copies. */
  secondaryPenalty: number;
  /** TypeScript declaration stubs. */
  declarationPenalty: number;
  /** `__init__.py`, `package-info.java`. */
  packageMarkerPenalty: number;
  /** Prose (markdown, rst…) unless the query asks for docs; config (json, yaml…) unless it asks for config. */
  prosePenalty: number;
  configPenalty: number;
  /** Files under an older `vN/` beside a newer one, unless the query asks for the old version. */
  legacyPenalty: number;
  /** Chunks that only forward whole modules and define no queried name. */
  barrelPenalty: number;
  /** Promote a file's best chunk by the evidence of its other chunks. */
  coherence: boolean;
  coherenceBoost: number;
  /** Whole-file evidence (file-as-document BM25, best chunk cosine) added to each of the file's chunks. */
  fileEvidence: boolean;
  fileBoost: number;
  /** Files whose top-level names many other files mention (hubs) gain up to this share of the best score. */
  centrality: boolean;
  centralityBoost: number;
  /** Decay per extra chunk of a file already selected, so one file can't take every slot. */
  saturation: boolean;
  saturationDecay: number;
  saturationFree: number;
}

export const DEFAULT_RANKING: Readonly<RankingConfig> = Object.freeze({
  dense: true,
  lexical: true,
  lexicalEngine: 'bm25',
  bm25K1: 1.2,
  bm25B: 0.75,
  perSource: 150,
  fusion: 'blend',
  semanticShareName: 0.3,
  semanticShareText: 0.5,
  symbols: true,
  definitions: true,
  definitionBoost: 3,
  definitionTextTier: 0.6,
  definitionMemberTier: 0.3,
  qualifiedDefinitionFactor: 1.3,
  namedFileDefinitionFactor: 1.5,
  definitionInSentenceFactor: 0.5,
  pathWords: true,
  pathBoost: 1,
  pathMinMatch: 0.1,
  pathDirWeight: 1,
  pathAboveWeight: 0.3,
  pathIdf: false,
  pathInformativeOnly: false,
  penalties: true,
  prose: true,
  legacy: true,
  barrels: true,
  testPenalty: 0.3,
  examplePenalty: 0.3,
  secondaryPenalty: 0.3,
  declarationPenalty: 0.7,
  packageMarkerPenalty: 0.5,
  prosePenalty: 0.5,
  configPenalty: 0.5,
  legacyPenalty: 0.5,
  barrelPenalty: 0.5,
  coherence: true,
  coherenceBoost: 0.2,
  fileEvidence: false,
  fileBoost: 0.3,
  centrality: false,
  centralityBoost: 0.1,
  saturation: true,
  saturationDecay: 0.5,
  saturationFree: 1,
});
