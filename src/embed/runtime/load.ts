import { ModelUnavailableError } from '../../util/errors.js';
import { findOnnxFile } from '../models/model-cache.js';
import { onnxFacts } from '../models/onnx-sidecar.js';
import { layoutTag, readModelLayout } from '../models/model-layout.js';
import { modelIdentity, requireModel } from '../models/resolve-model.js';
import { backendFor, backendNamed } from './backends.js';
import type { Embedder } from './types.js';

export interface LoadOptions {
  /** One-line notices (first-use model build); defaults to stderr. */
  onNotice?: (line: string) => void;
  /**
   * "auto" (default) takes the first backend of `BACKENDS` (backends.ts) that accepts the folder: the static fast
   * path whenever the ONNX graph is a pure token lookup. A backend's name forces it ("pipeline" checks the two
   * agree) and fails on a folder it does not accept.
   */
  backend?: 'auto' | (string & {});
  /** Worker threads of the static path (0 = none); default one per two cores, at most 2, or $OCRAG_EMBED_THREADS. */
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
  const folder = { dir: location.dir, onnx: facts, layout, modelId };
  const wanted = options.backend ?? 'auto';
  const backend = wanted === 'auto' ? backendFor(folder) : backendNamed(wanted);
  if (!backend) throw new Error(`unknown embedding backend "${wanted}"`);
  if (!backend.accepts(folder)) throw new Error(`model ${modelId} is not ${backend.requirement}; it needs the ${backendFor(folder).name} backend`);
  return backend.load(folder, { threads: options.threads, batchSize: options.batchSize });
}
