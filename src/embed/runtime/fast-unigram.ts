import { Tokenizer } from '@huggingface/tokenizers';
import type { VocabColumns } from './tokenizer-sidecar.js';
import { PieceTable, viterbi } from './unigram-lattice.js';

interface UnigramConfig {
  type: string;
  vocab: [string, number][];
  unk_id: number;
}

/** The fields of the library's Unigram model (@huggingface/tokenizers 0.2, pinned) that tokenizing reads. */
interface UnigramModel {
  vocab: string[];
  scores: number[];
  tokens_to_ids: Map<string, number>;
  unk_token_id: number;
  unk_token: string;
  bos_token: string;
  bos_token_id: number | undefined;
  eos_token: string | undefined;
  eos_token_id: number | undefined;
  min_score: number;
  unk_score: number;
  /** The library's character trie; replaced by the piece table (its own search is replaced too). */
  trie: unknown;
  tokenize(word: string): string[];
}

/**
 * A tokenizer from tokenizer.json, set up faster for Unigram models: the library builds a trie node per piece
 * character when constructing one (~40 ms for the default model's 8,224 pieces, a tenth of a one-shot search).
 * Here the model is constructed with one piece and then given the whole vocabulary as the library's constructor
 * would, a table of the pieces in place of the trie, and the lattice search of unigram-lattice.ts in place of its
 * own. Tests compare the ids with the library's own tokenizer (test/embed/fast-unigram.test.ts,
 * fused-tokenizer.test.ts). Other model types are untouched.
 */
export function tokenizerFrom(tokenizerJson: Record<string, unknown>, tokenizerConfig: Record<string, unknown>, columns?: VocabColumns): Tokenizer {
  const config = tokenizerJson.model as UnigramConfig | undefined;
  const size = columns?.pieces.length ?? (Array.isArray(config?.vocab) ? config.vocab.length : 0);
  const usable = config?.type === 'Unigram' && size > 0 && Number.isInteger(config.unk_id) && config.unk_id >= 0 && config.unk_id < size;
  if (!usable) return new Tokenizer(tokenizerJson, tokenizerConfig);
  const vocab = columns ? columns.pieces : config.vocab.map(([piece]) => piece);
  const scores = columns ? arrayOf(columns.scores) : config.vocab.map(([, score]) => score);
  const head = vocab.slice(0, config.unk_id + 1).map((piece, id): [string, number] => [piece, scores[id]]);
  const tokenizer = new Tokenizer({ ...tokenizerJson, model: { type: config.type, unk_id: config.unk_id, vocab: head } }, tokenizerConfig);
  const model = tokenizer.model as unknown as UnigramModel;
  if (!(model.trie && model.tokens_to_ids instanceof Map)) return new Tokenizer(tokenizerJson, tokenizerConfig);
  // Pieces of CJK characters only, at the end of the vocabulary (the default model's 30,000 Chinese words), are
  // registered the first time a word holds such a character: text without any never pays for them.
  const lazyFrom = cjkTail(vocab);
  model.vocab = vocab.slice();
  model.scores = scores;
  // Set one by one: 8,224 [piece, id] pairs made only to be read by the Map's constructor were a few ms of a search.
  model.tokens_to_ids = new Map();
  for (let id = 0; id < lazyFrom; id++) model.tokens_to_ids.set(vocab[id], id);
  model.unk_token_id = config.unk_id;
  model.unk_token = vocab[config.unk_id];
  model.bos_token_id = model.tokens_to_ids.get(model.bos_token);
  model.eos_token_id = model.eos_token === undefined ? undefined : model.tokens_to_ids.get(model.eos_token);
  let min = Infinity;
  for (const score of scores) if (score < min) min = score;
  model.min_score = min;
  model.unk_score = min - 10;
  scores[config.unk_id] = model.unk_score;
  const lookup = new PieceTable(vocab.slice(0, lazyFrom));
  model.trie = lookup;
  // Then, as the tokenizer's constructor did to the model it built, its added tokens.
  const added = (tokenizer as unknown as { added_tokens: { content: string; id: number }[] }).added_tokens ?? [];
  for (const token of added) {
    model.tokens_to_ids.set(token.content, token.id);
    model.vocab[token.id] = token.content;
  }
  let registered = lazyFrom === vocab.length;
  model.tokenize = (word: string): string[] => {
    if (!registered && CJK_CHAR.test(word)) {
      registered = true;
      for (let id = lazyFrom; id < vocab.length; id++) if (!model.tokens_to_ids.has(vocab[id])) model.tokens_to_ids.set(vocab[id], id);
      for (const token of added) model.tokens_to_ids.set(token.content, token.id);
      lookup.add(vocab.slice(lazyFrom));
    }
    return viterbi(word, lookup, model.tokens_to_ids, scores, model.unk_score);
  };
  return tokenizer;
}

/** A plain array of the column's numbers: `Array.from` goes through the iterator, ~10 ms for 38,224 of them in a fresh process. */
function arrayOf(column: Float64Array): number[] {
  const out = new Array<number>(column.length);
  for (let i = 0; i < column.length; i++) out[i] = column[i];
  return out;
}

/** Any character of the CJK blocks (U+2E80 and up to the end of the BMP's ideographs, Hangul, full-width forms). */
const CJK_CHAR = /[\u2e80-\ud7ff\uf900-\uffef]/;

/**
 * Where the vocabulary's final run of pieces made only of CJK characters starts (its length when there is none).
 * Unit by unit rather than by a regular expression per piece: the default model's 30,000 were ~3 ms of a search.
 */
function cjkTail(vocab: string[]): number {
  let i = vocab.length;
  while (i > 0 && onlyCjk(vocab[i - 1])) i--;
  return i;
}

/** Whether a piece is not empty and each of its UTF-16 units lies in the blocks of CJK_CHAR. */
function onlyCjk(piece: string): boolean {
  for (let k = 0; k < piece.length; k++) {
    const unit = piece.charCodeAt(k);
    if (!((unit >= 0x2e80 && unit <= 0xd7ff) || (unit >= 0xf900 && unit <= 0xffef))) return false;
  }
  return piece.length > 0;
}
