import type { Embedder } from '../embed/index.js';

/** The model a verifier's worker thread embeds its sample again with (verify/aside-worker.ts). */
export interface AsideModel {
  spec: string;
  modelId: string;
  dim: number;
}

/**
 * The configured model `spec`, when it is the token-lookup model `embedder` is: a verifier's worker then embeds the
 * sample again while this thread checks every row. Else undefined (a pipeline model would be loaded a second time,
 * on that thread, for seconds): the sample is embedded here, and its blobs are still cut there.
 */
export async function asideModelFor(spec: string, embedder: Pick<Embedder, 'modelId' | 'dim'>): Promise<AsideModel | undefined> {
  const { describeModel } = await import('../embed/index.js');
  const described = await describeModel(spec).catch(() => null);
  return described?.backend === 'static' && described.id === embedder.modelId && described.dim === embedder.dim ? { spec, modelId: embedder.modelId, dim: embedder.dim } : undefined;
}
