import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as OnnxProto from 'onnx-proto';
import { loadEmbedder, type Embedder } from '../../src/embed/index.js';

/**
 * Tiny Transformers.js model folders in the sentence-transformers layouts of real models, with MADE-UP
 * weights: they test plumbing (pooling, padding, prompts, truncation), not retrieval. The graph is
 * last_hidden_state = Gather(table, input_ids) with no masking, so a padding position returns the
 * [PAD] row, a huge vector that ruins any pooling that lets padding in.
 */
export const TINY_VOCAB = [
  '[PAD]', '[UNK]', 'alpha', 'beta', 'gamma', 'delta', 'query', 'passage', ':', 'search_query', 'search_document',
  'Instruct', 'Query', 'code', 'search',
] as const;
export const TINY_DIM = 6;
const PAD_VALUE = 1000;

/** Row `id` of the made-up table: arbitrary, signed, no two rows parallel; [PAD]'s is huge. */
export function tinyRow(id: number): Float32Array {
  return Float32Array.from({ length: TINY_DIM }, (_, d) => (id === 0 ? PAD_VALUE : Math.sin(id * 7.3 + d * 1.9) + 0.1 * d));
}

/** Token ids the tiny tokenizer gives (words and runs of punctuation; unknown words are [UNK]). */
export function tinyTokenIds(text: string): number[] {
  return (text.match(/\w+|[^\w\s]+/g) ?? []).map((w) => {
    const id = (TINY_VOCAB as readonly string[]).indexOf(w);
    return id >= 0 ? id : 1;
  });
}

export function unit(v: ArrayLike<number>): Float32Array {
  const n = Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0));
  return Float32Array.from(v, (x) => x / n);
}

/** What sentence-transformers would compute for `text` with the tiny table (padding never involved). */
export function expectedVector(text: string, pooling: 'cls' | 'mean' | 'lasttoken' | 'max', maxLength = Infinity): Float32Array {
  const rows = tinyTokenIds(text).slice(0, maxLength).map(tinyRow);
  if (pooling === 'cls') return unit(rows[0]);
  if (pooling === 'lasttoken') return unit(rows[rows.length - 1]);
  const out = new Float64Array(TINY_DIM).fill(pooling === 'max' ? -Infinity : 0);
  for (const r of rows) r.forEach((x, d) => (out[d] = pooling === 'max' ? Math.max(out[d], x) : out[d] + x));
  return unit(out);
}

export function assertClose(actual: Float32Array, expected: Float32Array, what: string): void {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((x, d) => assert.ok(Math.abs(x - expected[d]) < 1e-5, `${what}: [${Array.from(actual)}] vs [${Array.from(expected)}]`));
}

export async function withEmbedder<T>(dir: string, run: (e: Embedder) => Promise<T>, backend?: 'pipeline'): Promise<T> {
  const embedder = await loadEmbedder(dir, { threads: 0, backend });
  try {
    return await run(embedder);
  } finally {
    await embedder.close();
  }
}

export interface TinyModelOptions {
  /** config.json `_name_or_path` (how conventions are detected). */
  nameOrPath?: string;
  /** sentence-transformers pooling flag set in 1_Pooling/config.json (written with modules.json); none = no ST files. */
  poolingFlags?: string[];
  normalizeModule?: boolean;
  stConfig?: Record<string, unknown>;
  sentenceBertConfig?: Record<string, unknown>;
  paddingSide?: 'left' | 'right';
  modelMaxLength?: number;
}

/** Writes a tiny model folder at `dir` and returns it. */
export function writeTinyModel(dir: string, options: TinyModelOptions = {}): string {
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  const writeJson = (rel: string, value: unknown) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), JSON.stringify(value, null, 1));
  };
  writeJson('config.json', {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: TINY_DIM,
    vocab_size: TINY_VOCAB.length,
    ...(options.nameOrPath && { _name_or_path: options.nameOrPath }),
  });
  writeJson('tokenizer.json', tinyTokenizerJson());
  writeJson('tokenizer_config.json', {
    tokenizer_class: 'PreTrainedTokenizer',
    model_max_length: options.modelMaxLength ?? 512,
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    padding_side: options.paddingSide ?? 'right',
  });
  if (options.poolingFlags) {
    const modules = [
      { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
      { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
      ...(options.normalizeModule ? [{ idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' }] : []),
    ];
    writeJson('modules.json', modules);
    const flags = ['cls_token', 'mean_tokens', 'max_tokens', 'mean_sqrt_len_tokens', 'weightedmean_tokens', 'lasttoken'].map((f) => `pooling_mode_${f}`);
    writeJson('1_Pooling/config.json', {
      word_embedding_dimension: TINY_DIM,
      ...Object.fromEntries(flags.map((f) => [f, options.poolingFlags!.includes(f)])),
      include_prompt: true,
    });
  }
  if (options.stConfig) writeJson('config_sentence_transformers.json', options.stConfig);
  if (options.sentenceBertConfig) writeJson('sentence_bert_config.json', options.sentenceBertConfig);
  fs.writeFileSync(path.join(dir, 'onnx', 'model.onnx'), gatherOnlyGraph());
  return dir;
}

function tinyTokenizerJson(): object {
  const special = (id: number) => ({ id, content: TINY_VOCAB[id], single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0), special(1)],
    normalizer: null,
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: null,
    decoder: null,
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(TINY_VOCAB.map((w, i) => [w, i])),
    },
  };
}

// Values fixed by the ONNX spec (TensorProto.DataType, AttributeProto.AttributeType).
const FLOAT = 1;
const INT64 = 7;
const INT_ATTRIBUTE = 2;

function gatherOnlyGraph(): Uint8Array {
  const { onnx } = createRequire(import.meta.url)('onnx-proto') as typeof OnnxProto;
  const table = new Float32Array(TINY_VOCAB.length * TINY_DIM);
  TINY_VOCAB.forEach((_, id) => table.set(tinyRow(id), id * TINY_DIM));
  const tensor = (name: string, elemType: number, dims: Array<string | number>) => ({
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
  });
  const graph = {
    name: 'tiny_made_up_model',
    initializer: [{ name: 'table', dataType: FLOAT, dims: [TINY_VOCAB.length, TINY_DIM], floatData: Array.from(table) }],
    input: [tensor('input_ids', INT64, ['batch', 'sequence']), tensor('attention_mask', INT64, ['batch', 'sequence'])],
    output: [tensor('last_hidden_state', FLOAT, ['batch', 'sequence', TINY_DIM])],
    node: [{ opType: 'Gather', input: ['table', 'input_ids'], output: ['last_hidden_state'], attribute: [{ name: 'axis', type: INT_ATTRIBUTE, i: 0 }] }],
  };
  const model = onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 17 }], producerName: 'ocrag-test', graph });
  return onnx.ModelProto.encode(model).finish();
}
