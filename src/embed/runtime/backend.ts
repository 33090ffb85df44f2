import type { ModelLayout } from '../models/model-layout.js';
import type { OnnxFacts } from '../models/onnx-sidecar.js';
import type { Embedder } from './types.js';

/** What is known of a model folder without loading it: its ONNX graph's facts and how its files say it is used. */
export interface FolderFacts {
  dir: string;
  onnx: OnnxFacts;
  /** Absent only when describing a folder whose layout files do not parse (loading it fails before any backend). */
  layout?: ModelLayout;
}

export interface LoadableFolder extends FolderFacts {
  layout: ModelLayout;
  /** The id the index records (resolve-model.ts). */
  modelId: string;
}

export interface BackendLoadOptions {
  threads?: number;
  batchSize?: number;
}

/** One way of turning a model folder into an `Embedder`. The registry is `BACKENDS` in backends.ts. */
export interface EmbedderBackend {
  /** Shown by `ocrag model` and doctor, and the value of `LoadOptions.backend` that forces this backend. */
  readonly name: string;
  /** What `accepts` asks of a folder, for the error when this backend is forced on one it refuses. */
  readonly requirement: string;
  /**
   * True when the description's `dim` is the vector size for sure (read from the graph), so a caller needing only
   * the model's identity can skip loading it.
   */
  readonly dimFromFacts: boolean;
  accepts(folder: FolderFacts): boolean;
  load(folder: LoadableFolder, options: BackendLoadOptions): Promise<Embedder>;
}
