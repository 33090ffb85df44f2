import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelLayout } from '../models/model-layout.js';
import { poolAndNormalise } from './pooling.js';
import { withPrefix } from './prompts.js';
import { clipText, isBlank } from './text-limits.js';
import type { Embedder } from './types.js';
import { importPackage } from '../../util/import-package.js';

export const DEFAULT_PIPELINE_BATCH = 16;

export interface PipelineEmbedderOptions {
  modelId: string;
  layout: ModelLayout;
  batchSize?: number;
}

/** The parts of a Transformers.js tensor read here. */
interface TensorLike {
  data: ArrayLike<number | bigint>;
  dims: number[];
}

/**
 * Any Transformers.js feature-extraction model folder, run through onnxruntime the way its files say:
 * the folder's pooling, prompts and length limit (see model-layout.ts), then L2 normalisation.
 * Pooling happens here, not in the pipeline, because it must follow the attention mask (padding side).
 * Transformers.js is imported here, lazily, so the static fast path never pays for it.
 */
export async function createPipelineEmbedder(modelDir: string, options: PipelineEmbedderOptions): Promise<Embedder> {
  const { pipeline, env } = await importPackage<typeof import('@huggingface/transformers')>('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  const dtype = existsSync(join(modelDir, 'onnx', 'model.onnx')) ? 'fp32' : 'q8';
  const extractor = await pipeline('feature-extraction', modelDir, { dtype, device: 'cpu' });
  const { layout } = options;
  const batchSize = options.batchSize ?? DEFAULT_PIPELINE_BATCH;

  const embedBatch = async (texts: string[]): Promise<Float32Array[]> => {
    const inputs = extractor.tokenizer(texts, { padding: true, truncation: true, max_length: layout.maxLength });
    const outputs = (await extractor.model(inputs)) as Record<string, TensorLike | undefined>;
    const hidden = outputs.last_hidden_state ?? outputs.token_embeddings ?? outputs.logits;
    if (!hidden || hidden.dims.length !== 3) throw new Error(`model folder ${modelDir}: its ONNX graph returns no token vectors (last_hidden_state)`);
    const [batch, sequence, dim] = hidden.dims;
    const mask = (inputs as { attention_mask: TensorLike }).attention_mask.data;
    return poolAndNormalise({ data: hidden.data as Float32Array, dims: [batch, sequence, dim], mask }, layout.pooling);
  };
  const embedAll = async (texts: string[], prefix: string): Promise<Float32Array[]> => {
    const vectors: Float32Array[] = new Array(texts.length);
    const live = texts.flatMap((text, i) => (isBlank(text) ? [] : [i]));
    for (let start = 0; start < live.length; start += batchSize) {
      const batch = live.slice(start, start + batchSize);
      const batchVectors = await embedBatch(batch.map((i) => clipText(withPrefix(prefix, texts[i]))));
      batch.forEach((i, k) => (vectors[i] = batchVectors[k]));
    }
    return Array.from(vectors, (v) => v ?? new Float32Array(dim));
  };

  const [probe] = await embedBatch(['dimension probe']);
  const dim = probe.length;
  return {
    modelId: options.modelId,
    dim,
    embed: (texts) => embedAll(texts, layout.prompts.document),
    embedQuery: async (text) => (await embedAll([text], layout.prompts.query))[0],
    close: async () => {
      await extractor.dispose();
    },
  };
}
