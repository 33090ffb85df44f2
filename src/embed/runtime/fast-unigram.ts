import { Tokenizer } from '@huggingface/tokenizers';
import { cjkTail, CJK_CHAR } from './cjk-pieces.js';
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
  scores: Float64Array;
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
  const size = columns?.scores.length ?? (Array.isArray(config?.vocab) ? config.vocab.length : 0);
  const usable = config?.type === 'Unigram' && size > 0 && Number.isInteger(config.unk_id) && config.unk_id >= 0 && config.unk_id < size;
  if (!usable) return new Tokenizer(tokenizerJson, tokenizerConfig);
  const vocab = columns ?? columnsOf(config.vocab);
  // Pieces of CJK characters only, at the end of the vocabulary (the default model's 30,000 Chinese words), are
  // registered the first time a word holds such a character: text without any never pays for them.
  const lazyFrom = vocab.head.length;
  const piecesTo = (end: number) => (end <= lazyFrom ? vocab.head : vocab.all());
  // A copy: the unknown piece's score is set below, and the column may be the sidecar's, read again by nothing.
  const scores = vocab.scores.slice();
  const head = piecesTo(config.unk_id + 1).slice(0, config.unk_id + 1).map((piece, id): [string, number] => [piece, scores[id]]);
  const tokenizer = new Tokenizer({ ...tokenizerJson, model: { type: config.type, unk_id: config.unk_id, vocab: head } }, tokenizerConfig);
  const model = tokenizer.model as unknown as UnigramModel;
  if (!(model.trie && model.tokens_to_ids instanceof Map)) return new Tokenizer(tokenizerJson, tokenizerConfig);
  const added = (tokenizer as unknown as { added_tokens: { content: string; id: number }[] }).added_tokens ?? [];
  // The id → piece list, as the library's constructor makes it (added tokens over it), built when first read: only
  // decoding reads it, and the whole of it holds the CJK tail.
  let pieces: string[] | undefined;
  Object.defineProperty(model, 'vocab', {
    configurable: true,
    enumerable: true,
    get: () => {
      if (!pieces) {
        pieces = vocab.all().slice();
        for (const token of added) pieces[token.id] = token.content;
      }
      return pieces;
    },
    set: (value: string[]) => (pieces = value),
  });
  model.scores = scores;
  // Set one by one: 8,224 [piece, id] pairs made only to be read by the Map's constructor were a few ms of a search.
  model.tokens_to_ids = new Map();
  for (let id = 0; id < lazyFrom; id++) model.tokens_to_ids.set(vocab.head[id], id);
  model.unk_token_id = config.unk_id;
  model.unk_token = piecesTo(config.unk_id + 1)[config.unk_id];
  model.bos_token_id = model.tokens_to_ids.get(model.bos_token);
  model.eos_token_id = model.eos_token === undefined ? undefined : model.tokens_to_ids.get(model.eos_token);
  model.min_score = vocab.minScore;
  model.unk_score = vocab.minScore - 10;
  scores[config.unk_id] = model.unk_score;
  const lookup = new PieceTable(vocab.head);
  model.trie = lookup;
  // Then, as the tokenizer's constructor did to the model it built, its added tokens.
  for (const token of added) model.tokens_to_ids.set(token.content, token.id);
  let registered = lazyFrom === size;
  model.tokenize = (word: string): string[] => {
    if (!registered && CJK_CHAR.test(word)) {
      registered = true;
      const all = vocab.all();
      for (let id = lazyFrom; id < all.length; id++) if (!model.tokens_to_ids.has(all[id])) model.tokens_to_ids.set(all[id], id);
      for (const token of added) model.tokens_to_ids.set(token.content, token.id);
      lookup.add(all.slice(lazyFrom));
    }
    return viterbi(word, lookup, model.tokens_to_ids, scores, model.unk_score);
  };
  return tokenizer;
}

/** The columns of a vocabulary parsed from tokenizer.json (no sidecar). */
function columnsOf(vocab: [string, number][]): VocabColumns {
  const all = vocab.map(([piece]) => piece);
  const scores = Float64Array.from(vocab, ([, score]) => score);
  let minScore = Infinity;
  for (const score of scores) if (score < minScore) minScore = score;
  return { scores, head: all.slice(0, cjkTail(all)), all: () => all, minScore };
}
