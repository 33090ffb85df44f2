import type { IndexContext } from '../index/index-context.js';
import type { Manifest } from '../store/manifest.js';
import { addSources, agentSourcePaths } from '../service/sources.js';
import { sourceFileCount } from '../store/sources.js';

/** Adds sources as an agent may (only under the config's `sourceRoots`), then brings the view up to date with them. */
export async function addAgentSources(ctx: IndexContext, paths: string[], name: string | undefined, view: () => Promise<Manifest>): Promise<{ name: string; root: string; files: number }[]> {
  const added = await addSources(ctx, agentSourcePaths(ctx, paths), name);
  const files = Object.keys((await view()).files);
  return added.map((s) => ({ name: s.name, root: s.root, files: sourceFileCount(files, s.name) }));
}
