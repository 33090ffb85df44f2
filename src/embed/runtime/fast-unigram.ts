import { Tokenizer } from '@huggingface/tokenizers';
import type { VocabColumns } from './tokenizer-sidecar.js';

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
  /** The library's character trie; replaced by the piece set (its own search is replaced too). */
  trie: unknown;
  tokenize(word: string): string[];
}

interface PieceSet {
  add(pieces: string[]): void;
  has(piece: string): boolean;
  /** Length of the longest piece that starts with `char`, in UTF-16 units (0: none does). */
  longestFrom(char: string): number;
}

/**
 * A tokenizer from tokenizer.json, set up faster for Unigram models: the library builds a trie node per piece
 * character when constructing one (~40 ms for the default model's 8,224 pieces, a tenth of a one-shot search).
 * Here the model is constructed with one piece and then given the whole vocabulary as the library's constructor
 * would, a set of the pieces in place of the trie, and the lattice search below in place of its own. Tests compare
 * the ids with the library's own tokenizer (test/embed/fast-unigram.test.ts). Other model types are untouched.
 */
export function tokenizerFrom(tokenizerJson: Record<string, unknown>, tokenizerConfig: Record<string, unknown>, columns?: VocabColumns): Tokenizer {
  const config = tokenizerJson.model as UnigramConfig | undefined;
  const size = columns?.pieces.length ?? (Array.isArray(config?.vocab) ? config.vocab.length : 0);
  const usable = config?.type === 'Unigram' && size > 0 && Number.isInteger(config.unk_id) && config.unk_id >= 0 && config.unk_id < size;
  if (!usable) return new Tokenizer(tokenizerJson, tokenizerConfig);
  const vocab = columns ? columns.pieces : config.vocab.map(([piece]) => piece);
  const scores = columns ? Array.from(columns.scores) : config.vocab.map(([, score]) => score);
  const head = vocab.slice(0, config.unk_id + 1).map((piece, id): [string, number] => [piece, scores[id]]);
  const tokenizer = new Tokenizer({ ...tokenizerJson, model: { type: config.type, unk_id: config.unk_id, vocab: head } }, tokenizerConfig);
  const model = tokenizer.model as unknown as UnigramModel;
  if (!(model.trie && model.tokens_to_ids instanceof Map)) return new Tokenizer(tokenizerJson, tokenizerConfig);
  // Pieces of CJK characters only, at the end of the vocabulary (the default model's 30,000 Chinese words), are
  // registered the first time a word holds such a character: text without any never pays for them.
  const lazyFrom = cjkTail(vocab);
  model.vocab = [...vocab];
  model.scores = scores;
  model.tokens_to_ids = new Map(vocab.slice(0, lazyFrom).map((piece, id) => [piece, id]));
  model.unk_token_id = config.unk_id;
  model.unk_token = vocab[config.unk_id];
  model.bos_token_id = model.tokens_to_ids.get(model.bos_token);
  model.eos_token_id = model.eos_token === undefined ? undefined : model.tokens_to_ids.get(model.eos_token);
  let min = Infinity;
  for (const score of scores) if (score < min) min = score;
  model.min_score = min;
  model.unk_score = min - 10;
  scores[config.unk_id] = model.unk_score;
  const lookup = pieceSet(vocab.slice(0, lazyFrom));
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

/**
 * The library's Unigram lattice search, to the token: every piece that starts at a character is an edge scored by
 * its log-probability, a character no piece of length one covers gets the unknown score, and of equal paths the
 * one through the earlier split wins (the library keeps the first best predecessor, in order of start). The
 * library allocates and clones a node per candidate piece; Chinese text, where most positions start several
 * pieces, took 45% longer to tokenize with the Chinese words in the vocabulary (fastapi's zh/ja/ko docs: 1.6 s →
 * 2.3 s), the index run's largest cost there.
 */
function viterbi(word: string, lookup: PieceSet, ids: Map<string, number>, scores: ArrayLike<number>, unkScore: number): string[] {
  const chars = Array.from(word);
  const n = chars.length;
  const best = new Float64Array(n + 1).fill(-Infinity);
  const from = new Int32Array(n + 1);
  best[0] = 0;
  for (let start = 0; start < n; start++) {
    const base = best[start];
    let coversOne = false;
    let prefix = '';
    const limit = lookup.longestFrom(chars[start]);
    for (let i = start; i < n; i++) {
      prefix += chars[i];
      if (prefix.length > limit) break;
      if (!lookup.has(prefix)) continue;
      if (i === start) coversOne = true;
      const score = base + scores[ids.get(prefix)!];
      if (score > best[i + 1]) {
        best[i + 1] = score;
        from[i + 1] = start;
      }
    }
    if (!coversOne && base + unkScore > best[start + 1]) {
      best[start + 1] = base + unkScore;
      from[start + 1] = start;
    }
  }
  const tokens: string[] = [];
  for (let end = n; end > 0; end = from[end]) tokens.push(chars.slice(from[end], end).join(''));
  return tokens.reverse();
}

/** Any character of the CJK blocks (U+2E80 and up to the end of the BMP's ideographs, Hangul, full-width forms). */
const CJK_CHAR = /[\u2e80-\ud7ff\uf900-\uffef]/;

/** Where the vocabulary's final run of pieces made only of CJK characters starts (its length when there is none). */
function cjkTail(vocab: string[]): number {
  let i = vocab.length;
  while (i > 0 && /^[\u2e80-\ud7ff\uf900-\uffef]+$/.test(vocab[i - 1])) i--;
  return i;
}

/**
 * The pieces, and how long the longest one starting with each character is: past it no prefix can be a piece (a
 * trie would stop sooner, but building one costs more than these few set look-ups; a Chinese word is at most a
 * few characters, an English piece up to 21).
 */
function pieceSet(pieces: string[]): PieceSet {
  const whole = new Set(pieces);
  const longestFrom = new Map<string, number>();
  const note = (piece: string) => {
    const first = String.fromCodePoint(piece.codePointAt(0) ?? 0);
    if (piece.length > (longestFrom.get(first) ?? 0)) longestFrom.set(first, piece.length);
  };
  for (const piece of whole) note(piece);
  return {
    add(more: string[]) {
      for (const piece of more) {
        whole.add(piece);
        note(piece);
      }
    },
    has: (piece) => whole.has(piece),
    longestFrom: (char) => longestFrom.get(char) ?? 0,
  };
}
