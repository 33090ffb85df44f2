import type { IndexContext } from '../index/index-context.js';
import type { ModelDescription } from '../embed/index.js';
import type { IndexIdentity, ModelIdentity } from '../store/identity.js';
import { readMeta } from '../store/meta.js';
import { identityWith } from '../index/identity-with.js';

/**
 * The configured model's id and vector size, which an artifact must match, without loading the model when
 * that can be avoided (loading costs more than the rest of a small import): a built static model's description
 * states both (`describesDim`); a pipeline model's size is known only by running it, unless the store records it for that id.
 */
export async function localIdentity(ctx: IndexContext, loadModel: () => Promise<ModelIdentity>, description = describeConfigured(ctx)): Promise<IndexIdentity> {
  const { describesDim } = await import('../embed/index.js');
  const described = await description;
  let identity: ModelIdentity | null = null;
  if (describesDim(described)) identity = { modelId: described.id, dim: described.dim };
  else if (described.built) {
    const meta = readMeta(ctx.layout.meta);
    if (meta?.modelId === described.id) identity = { modelId: meta.modelId, dim: meta.dim };
  }
  identity ??= await loadModel();
  return identityWith(identity);
}

/** The configured model's description (read once by an import, for `localIdentity` and index/aside-model.ts). */
export async function describeConfigured(ctx: IndexContext): Promise<ModelDescription> {
  const { describeModel } = await import('../embed/index.js');
  return describeModel(ctx.config.model);
}
