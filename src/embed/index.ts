export type { Embedder } from './types.js';
export { loadEmbedder, type LoadOptions } from './load.js';
export { buildDefaultModel, ensureDefaultModel, DEFAULT_MODEL_ID, type BuildOptions, type EnsureOptions } from './build-static.js';
export { pullModel, type PullOptions } from './pull.js';
export { modelCacheDir } from './model-cache.js';
export { describeModel, type ModelDescription } from './describe.js';
