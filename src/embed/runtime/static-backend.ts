import type { EmbedderBackend } from './backend.js';
import { createStaticEmbedder } from './static-embedder.js';

/** Pure token-lookup graphs: the fast path sums table rows, so only mean pooling can be reproduced. */
export const staticBackend: EmbedderBackend = {
  name: 'static',
  requirement: 'a static token-lookup model with mean pooling',
  dimFromFacts: true,
  accepts: (folder) => !!folder.onnx.staticLookup && folder.layout?.pooling === 'mean',
  load: async (folder, options) =>
    createStaticEmbedder(folder.dir, folder.onnx.staticLookup!, { modelId: folder.modelId, prompts: folder.layout.prompts, threads: options.threads }),
};
