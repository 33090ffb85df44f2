/**
 * What every vector and chunk id of an index comes from: the model (its id and vector size) and the chunker.
 * The store's metadata, manifests and artifact headers record it; an index of another identity is not mixed in.
 */
export interface IndexIdentity {
  modelId: string;
  dim: number;
  /** The chunker's versions as one string, as `chunkerVersion()` in chunk/version.ts gives it. */
  chunkerVersion: string;
}

/** The model's part of an identity: what a loaded model, or a built model's description, tells. */
export type ModelIdentity = Pick<IndexIdentity, 'modelId' | 'dim'>;
