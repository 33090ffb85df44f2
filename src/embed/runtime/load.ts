import { ModelUnavailableError } from '../../util/errors.js';
import { findOnnxFile } from '../models/model-cache.js';
import { onnxFacts } from '../models/onnx-sidecar.js';
import { layoutTag, readModelLayout } from '../models/model-layout.js';
import { modelIdentity, requireModel } from '../models/resolve-model.js';
import { createStaticEmbedder } from './static-embedder.js';
import type { Embedder } from './types.js';

export interface LoadOptions {
  /** One-line notices (first-use model build); defaults to stderr. */
  onNotice?: (line: string) => void;
  /**
   * "auto" (default) takes the static fast path whenever the ONNX graph is a pure token lookup;
   * "pipeline" forces Transformers.js (used to check the two agree); "static" fails otherwise.
   */
  backend?: 'auto' | 'static' | 'pipeline';
  /** Worker threads of the static path (0/1 = none); default min(cores, 4) or $OCRAG_EMBED_THREADS. */
  threads?: number;
  /** Texts per onnxruntime call on the pipeline path. */
  batchSize?: number;
}

/**
 * Loads an embedding model: undefined/"default" builds (once) and loads ocrag's default model,
 * a folder path loads that folder, anything else is a model id in the cache. Never downloads.
 */
export async function loadEmbedder(spec?: string, options: LoadOptions = {}): Promise<Embedder> {
  const location = await requireModel(spec, options.onNotice);
  const onnxPath = findOnnxFile(location.dir);
  if (!onnxPath) throw new ModelUnavailableError(`model folder ${location.dir} has no ONNX file`);
  const facts = onnxFacts(onnxPath);
  const layout = readModelLayout(location.dir);
  const modelId = modelIdentity(location, facts, layoutTag(layout));
  const backend = options.backend ?? 'auto';
  // The fast path sums token rows: mean pooling, nothing else.
  const staticLookup = layout.pooling === 'mean' ? facts.staticLookup : undefined;

  if (backend !== 'pipeline' && staticLookup) {
    return createStaticEmbedder(location.dir, staticLookup, { modelId, prompts: layout.prompts, threads: options.threads });
  }
  if (backend === 'static') throw new Error(`model ${modelId} is not a static token-lookup model with mean pooling; it needs the pipeline backend`);
  // Loaded only here: a static model, the default, never needs this module (nor Transformers.js behind it).
  const { createPipelineEmbedder } = await import('./pipeline-embedder.js');
  return createPipelineEmbedder(location.dir, { modelId, layout, batchSize: options.batchSize });
}
