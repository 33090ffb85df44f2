import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { BoundedMemo } from '../../util/bounded-memo.js';
import { readJsonOr } from '../../util/json-file.js';
import { modelMaxLength } from '../models/model-layout.js';
import { clipText, isBlank } from './text-limits.js';
import { tokenizerFrom } from './fast-unigram.js';
import { fusedTokenIds, type TokenIds } from './fused-tokenizer.js';
import { RowArena } from './row-arena.js';
import { RowSummer } from './row-sum.js';
import { readTokenizerFile } from './tokenizer-sidecar.js';
import { WORD_MEMO_LIMIT } from './word-memo.js';

/** What a worker needs to rebuild an identical encoder (the table is shared, not copied). */
export interface StaticEncoderSource {
  modelDir: string;
  /** The whole table, or a reader of single rows (a one-shot query needs a few dozen of its many rows). */
  table: Float32Array | TableRows;
  dim: number;
  /** The memory the whole table lies in, for the row-summing kernel (row-sum.ts); absent: sums in JavaScript. */
  memory?: WebAssembly.Memory;
}

/** Rows of an embedding table read one at a time. */
export interface TableRows {
  readonly rowCount: number;
  /** Copies row `id` into `out`. */
  read(id: number, out: Float32Array): void;
}

/**
 * Embeds texts with a token-lookup table exactly as the Transformers.js feature-extraction
 * pipeline would (same tokenizer library and files, same special tokens and truncation, mean
 * pooling over the attention mask, L2 normalisation), without loading onnxruntime.
 */
export class StaticEncoder {
  private readonly tokenizer: Tokenizer;
  /** The library's ids in one pass (fused-tokenizer.ts), for the default model's tokenizer; else null. */
  private readonly fused: TokenIds | null;
  private readonly maxTokens: number;
  private readonly sum: Float64Array;
  private readonly counts: Int32Array;
  private readonly distinct: Int32Array;
  /** Rows read so far, when the table is read a row at a time. */
  private readonly arena: RowArena | null;
  private readonly summer: RowSummer | null;

  constructor(private readonly source: StaticEncoderSource) {
    const { json: tokenizerJson, columns } = readTokenizerFile(join(source.modelDir, 'tokenizer.json'));
    const tokenizerConfig = readJsonOr(join(source.modelDir, 'tokenizer_config.json'), {});
    this.tokenizer = tokenizerFrom(tokenizerJson, tokenizerConfig, columns);
    this.fused = fusedTokenIds(this.tokenizer, tokenizerJson);
    if (!this.fused) memoiseUnigramWords(this.tokenizer, tokenizerJson);
    this.maxTokens = modelMaxLength(source.modelDir).maxLength;
    this.arena = source.table instanceof Float32Array ? null : new RowArena(source.table, source.dim);
    this.summer = source.memory && source.table instanceof Float32Array ? RowSummer.over({ memory: source.memory, table: source.table, dim: source.dim }) : (this.arena?.summer ?? null);
    this.sum = this.summer?.sum ?? new Float64Array(source.dim);
    this.counts = new Int32Array(source.table instanceof Float32Array ? source.table.length / source.dim : source.table.rowCount);
    this.distinct = new Int32Array(this.maxTokens);
  }

  get dim(): number {
    return this.source.dim;
  }

  tokenIds(text: string): number[] {
    if (this.fused) return this.fused(clipText(text), this.maxTokens);
    const ids = this.tokenizer.encode(clipText(text), { add_special_tokens: true }).ids;
    return ids.length > this.maxTokens ? ids.slice(0, this.maxTokens) : ids;
  }

  /** Writes the unit vector of `text` into `out` at `offset` (zeros for blank text). */
  encodeInto(text: string, out: Float32Array, offset: number): void {
    const dim = this.source.dim;
    const sum = this.sumTokenRows(isBlank(text) ? [] : this.tokenIds(text));
    // Mean pooling divides by the token count; the direction, all that survives normalising, is the same.
    let norm = 0;
    for (let d = 0; d < dim; d++) norm += sum[d] * sum[d];
    norm = Math.sqrt(norm);
    if (norm === 0 || !Number.isFinite(norm)) {
      out.fill(0, offset, offset + dim);
      return;
    }
    for (let d = 0; d < dim; d++) out[offset + d] = sum[d] / norm;
  }

  /** Sums table rows, each distinct token once times its count: code repeats tokens ~3x per chunk. */
  private sumTokenRows(ids: number[]): Float64Array {
    const { dim } = this.source;
    const { sum, counts, distinct, arena } = this;
    const table = arena ? arena.table : (this.source.table as Float32Array);
    sum.fill(0);
    let distinctCount = 0;
    for (const id of ids) {
      if (!(id >= 0 && id < counts.length)) throw new Error(`token id ${id} outside the embedding table (${counts.length} rows)`);
      if (counts[id]++ === 0) distinct[distinctCount++] = id;
    }
    if (this.summer) {
      for (let k = 0; k < distinctCount; k++) {
        const id = distinct[k];
        this.summer.addRow(arena ? arena.slot(id) : id, counts[id]);
        counts[id] = 0;
      }
      return sum;
    }
    const unrolled = dim - (dim % 4);
    for (let k = 0; k < distinctCount; k++) {
      const id = distinct[k];
      const count = counts[id];
      counts[id] = 0;
      const row = (arena ? arena.slot(id) : id) * dim;
      let d = 0;
      for (; d < unrolled; d += 4) {
        sum[d] += count * table[row + d];
        sum[d + 1] += count * table[row + d + 1];
        sum[d + 2] += count * table[row + d + 2];
        sum[d + 3] += count * table[row + d + 3];
      }
      for (; d < dim; d++) sum[d] += count * table[row + d];
    }
    return sum;
  }

  encodeBatch(texts: string[]): Float32Array {
    const out = new Float32Array(texts.length * this.dim);
    texts.forEach((text, i) => this.encodeInto(text, out, i * this.dim));
    return out;
  }
}


/**
 * A Unigram model's lattice search dominates tokenization time, and it is a pure function of
 * the pre-tokenized word, which repeats constantly in code. Memoising it keeps results identical
 * while making the tokenizer several times faster. Other model types are left as they are.
 */
function memoiseUnigramWords(tokenizer: Tokenizer, tokenizerJson: Record<string, unknown>): void {
  const modelType = (tokenizerJson.model as { type?: string } | undefined)?.type;
  const model = tokenizer.model as unknown as { tokenize?: (word: string) => string[] } | null;
  if (modelType !== 'Unigram' || typeof model?.tokenize !== 'function') return;
  const tokenizeWord = model.tokenize.bind(model);
  const memo = new BoundedMemo<string, string[]>(WORD_MEMO_LIMIT);
  model.tokenize = (word: string): string[] => memo.get(word, tokenizeWord).slice();
}

