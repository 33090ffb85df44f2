// The numbers of the Chinese recipe, apart from its code: every model load checks the recipe's fingerprint
// (fingerprint.ts), and must not load the recipe to do it.

/** How the Chinese rows are made: what the recipe's functions take (bench/zh-model-variant.ts tries others). */
export interface ChineseRowRecipe {
  /** Chinese words added to the vocabulary, most common first (the software glossary always). */
  words: number;
  /** How much each of a word's senses counts in its row, in the lexicon's order. */
  senseWeights: number[];
}

/**
 * Each row costs 2 KB of table (512 floats): 30,000 words cover ~95% of the word occurrences in jieba's corpus
 * (20,000: 92%) and grow the model from 16 to 78 MB; a word outside them is read as its shorter words or characters.
 * CC-CEDICT lists the common sense first.
 */
export const CHINESE_ROWS: ChineseRowRecipe = { words: 30_000, senseWeights: [1, 0.5] };

/** Everything here that shapes the vectors, for the recipe's fingerprint (bump `rules` when the code changes). */
export const CHINESE_RECIPE = { ...CHINESE_ROWS, rules: 5 };
