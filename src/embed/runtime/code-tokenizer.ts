/** A SentencePiece-style vocabulary entry: [piece, log-probability score]. */
export type ScoredPiece = [piece: string, score: number];

export const WORD_BOUNDARY = '\u2581';

/**
 * Code-aware normaliser: identifiers are split into words (camelCase, PascalCase acronyms,
 * snake_case, $-prefixes) and lowercased, so `parseArgs` and `parse_args` share tokens with
 * the English query "parse args".
 */
export const CODE_NORMALIZER_RULES: ReadonlyArray<[regex: string, replacement: string]> = [
  ['([a-z0-9])([A-Z])', '$1 $2'],
  ['([A-Z]+)([A-Z][a-z])', '$1 $2'],
  ['[_$]+', ' '],
];

const CODE_NORMALIZER = {
  type: 'Sequence',
  normalizers: [
    { type: 'NFKC' },
    ...CODE_NORMALIZER_RULES.map(([regex, content]) => ({ type: 'Replace', pattern: { Regex: regex }, content })),
    { type: 'Lowercase' },
  ],
};

const METASPACE = { type: 'Metaspace', replacement: WORD_BOUNDARY, prepend_scheme: 'always', split: true };

/**
 * Text is cut into runs of word characters and runs of punctuation (`a.slice(2)` → a . slice ( 2 )),
 * each tokenized alone and word-initial: layout whitespace disappears (newlines and tabs are not in
 * the vocabulary), `slice` matches its whole-word piece even after a dot, and the fast path can
 * memoise the tokenization of each distinct run.
 */
const PRE_TOKENIZER = { type: 'Sequence', pretokenizers: [{ type: 'Whitespace' }, METASPACE] };

/** Everything in tokenizer.json except the vocabulary (part of the recipe's fingerprint). */
export const TOKENIZER_PIPELINE = { normalizer: CODE_NORMALIZER, pre_tokenizer: PRE_TOKENIZER };

/** tokenizer.json for a Unigram model over `pieces`; piece `unkId` stands for anything unknown. */
export function unigramTokenizerJson(pieces: ScoredPiece[], unkId: number): object {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [
      { id: unkId, content: pieces[unkId][0], single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
    ],
    normalizer: CODE_NORMALIZER,
    pre_tokenizer: PRE_TOKENIZER,
    post_processor: null,
    decoder: METASPACE,
    model: { type: 'Unigram', unk_id: unkId, vocab: pieces, byte_fallback: false },
  };
}

export function tokenizerConfigJson(unkToken: string, maxTokens: number): object {
  return {
    tokenizer_class: 'PreTrainedTokenizer',
    model_max_length: maxTokens,
    unk_token: unkToken,
    pad_token: unkToken,
    clean_up_tokenization_spaces: false,
  };
}
