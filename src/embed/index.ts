export type { Embedder } from './runtime/types.js';
export { loadEmbedder, type LoadOptions } from './runtime/load.js';
export { POOL_MIN_BATCH } from './runtime/static-embedder.js';
export { buildDefaultModel, ensureDefaultModel, type BuildOptions, type EnsureOptions } from './models/build-static.js';
export { DEFAULT_MODEL_ID, isDefaultModelSpec, SUPERSEDED_DEFAULT_MODEL_IDS } from './models/model-ids.js';
export { pullModel, type PullOptions } from './models/pull.js';
export { modelCacheDir } from './models/model-cache.js';
export { describeModel, describesDim, type ModelDescription } from './models/describe.js';
