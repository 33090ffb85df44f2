import type { Tokenizer } from '@huggingface/tokenizers';
import { SPACE, UNIT_CLASS } from './word-split.js';
import { HASH_SEED, hashStep, WORD_MEMO_LIMIT, WordMemo } from './word-memo.js';

/** Ids of one text, as `tokenizer.encode(text, { add_special_tokens: true }).ids` gives them; at most `limit` of them. */
export type TokenIds = (text: string, limit: number) => number[];

/** The parts of the library's tokenizer (@huggingface/tokenizers 0.2, pinned) that the fused path reads. */
interface TokenizerParts {
  normalizer: { normalize(text: string): string } | null;
  model: { tokenize?(word: string): string[]; tokens_to_ids?: unknown; unk_token_id?: unknown; fuse_unk?: unknown } | null;
  added_tokens?: { content: string; id: number; special: boolean; normalized: boolean; lstrip: boolean; rstrip: boolean }[];
  remove_space?: unknown;
  do_lowercase_and_remove_accent?: unknown;
}

interface Word {
  /** The word's ids; `UNKNOWN` where a token is unknown to the vocabulary (its text is in `tokens`). */
  ids: number[];
  /** The tokens, kept only when one is unknown: runs of them fuse into one token, across words too. */
  tokens: string[] | null;
}

const UNKNOWN = -1;


/**
 * The library's `encode` for one tokenizer shape — any normaliser, the Whitespace pre-tokenizer then Metaspace,
 * a Unigram model, no post-processor, added tokens that are single special characters: the default model's
 * (runtime/code-tokenizer.ts) — in one pass. Any other shape gets null, and the caller keeps the library's `encode`.
 *
 * The library goes through `encode_text`'s added-token splitter and closures per section, a pre-tokenizer
 * sequence that maps and flattens arrays per word, the model's `Callable`, `fuse_unk` over every token and a map
 * look-up per token: 37–45 % of an index run's busy thread time on tokio and 1Panel. Here the text is cut at its
 * added tokens, each section normalised by the library's own normaliser, cut into words by one table-driven scan
 * (word-split.ts), each distinct word tokenized once by the model (fast-unigram.ts, unigram-lattice.ts) and its
 * ids remembered without cutting the word out (word-memo.ts); unknown tokens fuse exactly as `fuse_unk` fuses
 * them, across words too (which the default model's vocabulary never makes happen: every word starts with the
 * known piece "▁"). CPU to tokenize every chunk text of a repository with a fresh tokenizer, against the library
 * as StaticEncoder used it before (its word memo, the fast Unigram set-up), medians of 7 interleaved: tokio
 * 1,871 → 297 ms (6.3×), jsoup 1,287 → 199 ms (6.5×), click 713 → 153 ms (4.7×), RuoYi-Vue (Chinese comments)
 * 799 → 177 ms (4.5×), fastapi (docs in many languages) 6,925 → 1,601 ms (4.3×).
 *
 * No input is handed back to the library: every step is the library's own object or does what its code does for
 * this shape, so none can come out differently. Checked against the library's `encode` (no fallback needed, none
 * taken): every text file of this repository (651, 4.0 M characters, Chinese among them) and of five installed
 * packages (1,885, 10.1 M characters), 37 edge cases, 6,500 random strings of troublesome characters and
 * vocabularies where unknown runs fuse across words (test/embed/fused-tokenizer*.test.ts); the chunk texts of the
 * 16 evaluation repositories (106,204) and their 1,118 queries, English and Chinese (bench/tokenize.ts): no id
 * differs.
 */
export function fusedTokenIds(tokenizer: Tokenizer, tokenizerJson: Record<string, unknown>): TokenIds | null {
  const parts = tokenizer as unknown as TokenizerParts;
  const model = parts.model;
  const normalizer = parts.normalizer;
  const added = parts.added_tokens ?? [];
  const metaspace = metaspaceOf(tokenizerJson.pre_tokenizer);
  const usable =
    metaspace !== null &&
    tokenizerJson.post_processor === null &&
    (tokenizerJson.model as { type?: unknown } | undefined)?.type === 'Unigram' &&
    typeof model?.tokenize === 'function' &&
    model.tokens_to_ids instanceof Map &&
    typeof model.unk_token_id === 'number' &&
    typeof model.fuse_unk === 'boolean' &&
    (normalizer === null || typeof normalizer.normalize === 'function') &&
    parts.remove_space !== true &&
    !parts.do_lowercase_and_remove_accent &&
    added.every((t) => t.content.length === 1 && t.special && !t.normalized && !t.lstrip && !t.rstrip);
  if (!usable) return null;

  const tokenize = model.tokenize!.bind(model);
  const ids = model.tokens_to_ids as Map<string, number>;
  const unk = model.unk_token_id as number;
  const fuse = model.fuse_unk as boolean;
  // The tokenizer's added-token map: its ids win over the model's in the final look-up.
  const addedIds = new Map(added.map((t) => [t.content, t.id]));
  const addedUnits = new Set(added.map((t) => t.content.charCodeAt(0)));
  const idOf = (token: string): number => addedIds.get(token) ?? ids.get(token) ?? unk;
  const { replacement, prefix } = metaspace;

  const memo = new WordMemo<Word>(WORD_MEMO_LIMIT);
  const wordOf = (word: string, hash: number): Word => {
    const tokens = tokenize(word.startsWith(replacement) ? word : prefix + word);
    const out: number[] = new Array(tokens.length);
    let anyUnknown = false;
    for (let i = 0; i < tokens.length; i++) {
      const id = ids.get(tokens[i]);
      // `fuse_unk`'s test: a token is unknown when the model's map has no id for it, or the unknown id.
      if (fuse && (id === undefined || id === unk)) {
        out[i] = UNKNOWN;
        anyUnknown = true;
      } else out[i] = idOf(tokens[i]);
    }
    const entry = { ids: out, tokens: anyUnknown ? tokens : null };
    memo.add(word, hash, entry);
    return entry;
  };

  /** One section (text between added tokens), as `encode_text` then `model(section_tokens)` give it. */
  const section = (raw: string, out: number[], limit: number): void => {
    const text = normalizer ? normalizer.normalize(raw) : raw;
    if (text.length === 0) return;
    if (addedIds.has(text)) {
      out.push(addedIds.get(text)!);
      return;
    }
    // The fused run of unknown tokens under way: `fuse_unk` appends to it while it is not itself the unknown token.
    let run: string | null = null;
    const n = text.length;
    let i = 0;
    while (i < n && out.length < limit) {
      // `\w+|[^\w\s]+` (word-split.ts): a run of one class of units, spaces skipped.
      const kind = UNIT_CLASS[text.charCodeAt(i)];
      if (kind === SPACE) {
        i++;
        continue;
      }
      const start = i;
      let hash = hashStep(HASH_SEED, text.charCodeAt(i));
      for (i++; i < n; i++) {
        const unit = text.charCodeAt(i);
        if (UNIT_CLASS[unit] !== kind) break;
        hash = hashStep(hash, unit);
      }
      const entry = memo.find(text, start, i, hash) ?? wordOf(text.slice(start, i), hash);
      const wordIds = entry.ids;
      if (entry.tokens === null) {
        if (run !== null) {
          out.push(idOf(run));
          run = null;
        }
        for (let k = 0; k < wordIds.length; k++) out.push(wordIds[k]);
        continue;
      }
      for (let k = 0; k < wordIds.length; k++) {
        const id = wordIds[k];
        if (id !== UNKNOWN) {
          if (run !== null) {
            out.push(idOf(run));
            run = null;
          }
          out.push(id);
        } else if (run === null) run = entry.tokens[k];
        else if (ids.get(run) !== unk) run += entry.tokens[k];
      }
    }
    if (run !== null) out.push(idOf(run));
  };

  // The library cuts the text at each added token (one character each here) before normalising: U+FFFD, the
  // default model's unknown token, is its own token wherever it appears in the raw text.
  const [only] = addedUnits;
  const nextAdded =
    addedUnits.size <= 1
      ? (text: string, from: number) => (only === undefined ? -1 : text.indexOf(String.fromCharCode(only), from))
      : (text: string, from: number) => {
          for (let i = from; i < text.length; i++) if (addedUnits.has(text.charCodeAt(i))) return i;
          return -1;
        };
  return (text: string, limit: number): number[] => {
    const out: number[] = [];
    let start = 0;
    for (let at = nextAdded(text, 0); at >= 0 && out.length < limit; at = nextAdded(text, start)) {
      if (at > start) section(text.slice(start, at), out, limit);
      out.push(addedIds.get(text[at])!);
      start = at + 1;
    }
    if (start < text.length && out.length < limit) section(start === 0 ? text : text.slice(start), out, limit);
    return out.length > limit ? out.slice(0, limit) : out;
  };
}

/** The Metaspace step of a `Sequence[Whitespace, Metaspace]` pre-tokenizer that prepends always, else null. */
function metaspaceOf(config: unknown): { replacement: string; prefix: string } | null {
  const steps = (config as { type?: unknown; pretokenizers?: unknown } | null)?.pretokenizers;
  if ((config as { type?: unknown } | null)?.type !== 'Sequence' || !Array.isArray(steps) || steps.length !== 2) return null;
  const [whitespace, metaspace] = steps as Record<string, unknown>[];
  if (whitespace?.type !== 'Whitespace' || metaspace?.type !== 'Metaspace') return null;
  if ((metaspace.prepend_scheme ?? 'always') !== 'always') return null;
  const replacement = (metaspace.replacement ?? '\u2581') as unknown;
  if (typeof replacement !== 'string') return null;
  const strRep = metaspace.str_rep;
  // The library's `str_rep || replacement`: what replaces a space and is prepended; no word holds a space.
  return { replacement, prefix: typeof strRep === 'string' && strRep ? strRep : replacement };
}
