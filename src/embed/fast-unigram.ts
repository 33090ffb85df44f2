import { Tokenizer } from '@huggingface/tokenizers';

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
  trie: PrefixLookup;
}

interface PrefixLookup {
  common_prefix_search(chars: string[], start?: number): Iterable<string>;
}

/**
 * A tokenizer from tokenizer.json, set up faster for Unigram models: the library builds a trie node per piece
 * character when constructing one (~40 ms for the default model's 8,224 pieces, a tenth of a one-shot search).
 * Here the model is constructed with one piece and then given the whole vocabulary as the library's constructor
 * would, with a prefix lookup over a set of the pieces, which yields exactly the pieces the trie yields. Tests compare
 * the ids with the library's own tokenizer (test/embed/fast-unigram.test.ts). Other model types are untouched.
 */
export function tokenizerFrom(tokenizerJson: Record<string, unknown>, tokenizerConfig: Record<string, unknown>): Tokenizer {
  const config = tokenizerJson.model as UnigramConfig | undefined;
  const usable = config?.type === 'Unigram' && Array.isArray(config.vocab) && Number.isInteger(config.unk_id) && config.unk_id >= 0 && config.unk_id < config.vocab.length;
  if (!usable) return new Tokenizer(tokenizerJson, tokenizerConfig);
  const tokenizer = new Tokenizer({ ...tokenizerJson, model: { ...config, vocab: config.vocab.slice(0, config.unk_id + 1) } }, tokenizerConfig);
  const model = tokenizer.model as unknown as UnigramModel;
  if (!(model.trie && model.tokens_to_ids instanceof Map)) return new Tokenizer(tokenizerJson, tokenizerConfig);
  const vocab = config.vocab.map(([piece]) => piece);
  const scores = config.vocab.map(([, score]) => score);
  model.vocab = [...vocab];
  model.scores = scores;
  model.tokens_to_ids = new Map(vocab.map((piece, id) => [piece, id]));
  model.unk_token_id = config.unk_id;
  model.unk_token = vocab[config.unk_id];
  model.bos_token_id = model.tokens_to_ids.get(model.bos_token);
  model.eos_token_id = model.eos_token === undefined ? undefined : model.tokens_to_ids.get(model.eos_token);
  let min = Infinity;
  for (const score of scores) if (score < min) min = score;
  model.min_score = min;
  model.unk_score = min - 10;
  scores[config.unk_id] = model.unk_score;
  model.trie = prefixLookup(vocab);
  // Then, as the tokenizer's constructor did to the model it built, its added tokens.
  for (const token of (tokenizer as unknown as { added_tokens: { content: string; id: number }[] }).added_tokens ?? []) {
    model.tokens_to_ids.set(token.content, token.id);
    model.vocab[token.id] = token.content;
  }
  return tokenizer;
}

/** The pieces that start `chars` at `start`, shortest first, as the library's character trie yields them. */
function prefixLookup(pieces: string[]): PrefixLookup {
  const whole = new Set(pieces);
  // No piece is longer than the longest one: past it no prefix can be a piece (a trie would stop sooner, but
  // building one, or sorting the pieces for a binary search, costs more than these few set look-ups).
  let longest = 0;
  for (const piece of whole) if (piece.length > longest) longest = piece.length;
  return {
    *common_prefix_search(chars: string[], start = 0) {
      let prefix = '';
      for (let i = start; i < chars.length; i++) {
        prefix += chars[i];
        if (prefix.length > longest) return;
        if (whole.has(prefix)) yield prefix;
      }
    },
  };
}
