import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { withPrefix, type Prompts } from './prompts.js';
import { clipText, isBlank } from './text-limits.js';
import type { Embedder } from './types.js';

export const DEFAULT_PIPELINE_BATCH = 16;

export interface PipelineEmbedderOptions {
  modelId: string;
  prompts: Prompts;
  batchSize?: number;
}

/**
 * Any Transformers.js feature-extraction model folder, run through onnxruntime: mean pooling,
 * L2 normalisation, inputs truncated to the model's maximum length by the tokenizer.
 * Transformers.js is imported here, lazily, so the static fast path never pays for it.
 */
export async function createPipelineEmbedder(modelDir: string, options: PipelineEmbedderOptions): Promise<Embedder> {
  const { pipeline, env } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  const dtype = existsSync(join(modelDir, 'onnx', 'model.onnx')) ? 'fp32' : 'q8';
  const extractor = await pipeline('feature-extraction', modelDir, { dtype, device: 'cpu' });
  const batchSize = options.batchSize ?? DEFAULT_PIPELINE_BATCH;

  const embedBatch = async (texts: string[]): Promise<Float32Array[]> => {
    const output = await extractor(texts, { pooling: 'mean', normalize: true });
    const data = output.data as Float32Array;
    const dim = data.length / texts.length;
    return texts.map((_, i) => zeroIfNotFinite(data.slice(i * dim, (i + 1) * dim)));
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
    embed: (texts) => embedAll(texts, options.prompts.document),
    embedQuery: async (text) => (await embedAll([text], options.prompts.query))[0],
    close: async () => {
      await extractor.dispose();
    },
  };
}

/** Mean pooling over zero tokens or normalising a zero vector yields NaN; the interface promises zeros. */
function zeroIfNotFinite(vector: Float32Array): Float32Array {
  return vector.every(Number.isFinite) ? vector : vector.fill(0);
}
