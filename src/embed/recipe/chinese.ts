import { Tokenizer } from '@huggingface/tokenizers';
import { tokenizerConfigJson, unigramTokenizerJson, type ScoredPiece } from '../runtime/code-tokenizer.js';
import { tokenizerFrom } from '../runtime/fast-unigram.js';
import { MAX_TOKENS } from '../runtime/text-limits.js';
import { buildZhEntries } from '../../text/zh-lexicon-build.js';
import { ZH_GLOSSARY } from '../../text/zh-glossary.js';
import type { ChineseRowRecipe } from './chinese-recipe.js';

/** Chinese pieces for the student vocabulary: tokenizer scores, and the English senses each row is made of. */
export interface ChinesePieces {
  pieces: ScoredPiece[];
  senses: string[][];
}

/**
 * Chinese pieces carry no word-boundary mark: Chinese runs have no spaces, and the tokenizer's Unigram model
 * segments them into the most probable words by these scores (their log-probability in jieba's corpus), the way
 * jieba itself does.
 */
export async function chinesePieces(recipe: ChineseRowRecipe): Promise<ChinesePieces> {
  const entries = await buildZhEntries();
  const total = entries.reduce((sum, e) => sum + e.freq, 0);
  const chosen = entries.filter((e, rank) => rank < recipe.words || ZH_GLOSSARY.has(e.word));
  return {
    pieces: chosen.map((e): ScoredPiece => [e.word, Math.log(e.freq / total)]),
    senses: chosen.map((e) => e.senses.slice(0, recipe.senseWeights.length)),
  };
}

/**
 * Each Chinese word's row is what the finished code vocabulary makes of its English senses (`请求` → the rows of
 * `request`, `解析` → `parse` and half of `parser`): a Chinese comment then sums to the vector of its English
 * translation, word by word, and lands where English code and questions about it do. Asking the teacher for the
 * senses instead gives phrase vectors that the code rows are not aligned with (measured: an English question
 * against a Chinese comment scored cosine 0.14–0.23 that way, against 0.79 for the same comment in English).
 */
export function composeChineseRows(
  table: Float32Array,
  dim: number,
  codePieces: ScoredPiece[],
  unkId: number,
  chinese: ChinesePieces,
  reading: SenseReading,
): void {
  const tokenizer: Tokenizer = tokenizerFrom(
    unigramTokenizerJson(codePieces, unkId) as Record<string, unknown>,
    tokenizerConfigJson(codePieces[unkId][0], MAX_TOKENS) as Record<string, unknown>,
  );
  const encode = (text: string) => tokenizer.encode(text, { add_special_tokens: true }).ids;
  const start = codePieces.length;
  chinese.senses.forEach((senses, i) => {
    const row = table.subarray((start + i) * dim, (start + i + 1) * dim);
    let weights = 0;
    for (const { ids, weight } of reading(senses, encode)) {
      weights += weight;
      for (const id of ids) {
        for (let d = 0; d < dim; d++) row[d] += weight * table[id * dim + d];
      }
    }
    if (weights) for (let d = 0; d < dim; d++) row[d] /= weights;
  });
}

/** The code pieces of each of a word's senses and how much it counts in the word's row. */
export type SenseReading = (senses: string[], encode: (text: string) => number[]) => Array<{ ids: number[]; weight: number }>;

/** Each sense as the code vocabulary reads it, weighted by its place in the lexicon. */
export function inDictionaryOrder(weights: number[]): SenseReading {
  return (senses, encode) => senses.map((sense, s) => ({ ids: encode(sense), weight: weights[s] ?? 0 }));
}
