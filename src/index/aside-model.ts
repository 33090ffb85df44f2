import type { Embedder, ModelDescription } from '../embed/index.js';

/** The model a verifier's worker thread embeds its sample again with (verify/aside-worker.ts). */
export interface AsideModel {
  spec: string;
  modelId: string;
  dim: number;
}

/**
 * The configured model `spec`, when its description says it is a built token-lookup model (cheap to load twice)
 * and, given the embedder this thread loaded, that very model: a verifier's worker then embeds the sample again
 * while this thread checks every row. Else undefined (a pipeline model would be loaded a second time, on that
 * thread, for seconds): the sample is embedded here, and its blobs are still cut there.
 */
export async function asideModelFor(spec: string, embedder?: Pick<Embedder, 'modelId' | 'dim'>, description?: Promise<ModelDescription>): Promise<AsideModel | undefined> {
  const { describeModel, describesDim } = await import('../embed/index.js');
  const described = await (description ?? describeModel(spec)).catch(() => null);
  if (!described || described.backend !== 'static' || !describesDim(described)) return undefined;
  if (embedder && (described.id !== embedder.modelId || described.dim !== embedder.dim)) return undefined;
  return { spec, modelId: described.id, dim: described.dim };
}
