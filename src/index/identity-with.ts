import { chunkerVersion } from '../chunk/version.js';
import type { IndexIdentity, ModelIdentity } from '../store/identity.js';

/** The identity of what this build indexes with `model`: the model's id and vector size, and this chunker's versions. */
export function identityWith(model: ModelIdentity): IndexIdentity {
  return { modelId: model.modelId, dim: model.dim, chunkerVersion: chunkerVersion() };
}
