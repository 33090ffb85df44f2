import type { EmbedderBackend } from './backend.js';

/** Any ONNX model, through Transformers.js and onnxruntime: the fallback, so it accepts every folder. */
export const pipelineBackend: EmbedderBackend = {
  name: 'pipeline',
  requirement: 'an ONNX model',
  dimFromFacts: false,
  accepts: () => true,
  load: async (folder, options) => {
    // Imported only here: a static model, the default, never loads this module (nor Transformers.js behind it).
    const { createPipelineEmbedder } = await import('./pipeline-embedder.js');
    return createPipelineEmbedder(folder.dir, { modelId: folder.modelId, layout: folder.layout, batchSize: options.batchSize });
  },
};
