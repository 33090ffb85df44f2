/**
 * The ranking stack's switches and weights. Every component can be turned off on its own, so the benchmark
 * can measure what each one is worth (`npm run eval -- --ablate`); the defaults are the measured best.
 */
export interface RankingConfig {
  /** Retrievers. */
  dense: boolean;
  lexical: boolean;
  /** Visible candidates taken from each retriever. */
  perSource: number;
  /** How lexical and semantic evidence are combined: normalised score blend or reciprocal ranks. */
  fusion: 'blend' | 'rrf';
  /** Semantic share of the blend for bare-name queries and for sentences. */
  semanticShareName: number;
  semanticShareText: number;
  /** Chunks defining a name the query gives (`Router`, or `ZodType` inside a sentence). */
  definitions: boolean;
  definitionBoost: number;
  /** Files whose path words match the query's words. */
  pathWords: boolean;
  pathBoost: number;
  /** Pull in files singled out by name or path that neither retriever returned. */
  pullIn: boolean;
  /** Tests, examples, vendored copies, declaration stubs, package markers, re-export barrels. */
  penalties: boolean;
  barrels: boolean;
  /** Promote a file's best chunk by the evidence of its other chunks. */
  coherence: boolean;
  coherenceBoost: number;
  /** Decay per extra chunk of a file already selected, so one file can't take every slot. */
  saturation: boolean;
  saturationDecay: number;
  saturationFree: number;
}

export const DEFAULT_RANKING: Readonly<RankingConfig> = Object.freeze({
  dense: true,
  lexical: true,
  perSource: 150,
  fusion: 'blend',
  semanticShareName: 0.3,
  semanticShareText: 0.5,
  definitions: true,
  definitionBoost: 3,
  pathWords: true,
  pathBoost: 1,
  pullIn: true,
  penalties: true,
  barrels: true,
  coherence: true,
  coherenceBoost: 0.2,
  saturation: true,
  saturationDecay: 0.5,
  saturationFree: 1,
});

/** Every ranking component off: retrieval and fusion alone. */
export const FUSION_ONLY: Partial<RankingConfig> = {
  definitions: false,
  pathWords: false,
  pullIn: false,
  penalties: false,
  barrels: false,
  coherence: false,
  saturation: false,
};
