import path from 'node:path';
import type { IndexContext } from '../index/index-context.js';
import type { Manifest } from '../store/manifest.js';
import { addSources, checkAgentMayAdd, listSources, removeSource } from '../service/sources.js';
import { sourceFileCount, type SourceSpec } from '../store/sources.js';

/** Adds sources as an agent may (only under the config's `sourceRoots`), then brings the view up to date with them. */
export async function addAgentSources(ctx: IndexContext, paths: string[], name: string | undefined, view: () => Promise<Manifest>): Promise<{ name: string; root: string; files: number }[]> {
  for (const p of paths) checkAgentMayAdd(ctx, p);
  const added = addSources(ctx, paths.map((p) => path.resolve(ctx.repo.root, p)), name);
  const files = Object.keys((await view()).files);
  return added.map((s) => ({ name: s.name, root: s.root, files: sourceFileCount(files, s.name) }));
}

/** Takes out a source named, or added with a path as the agent sees it: relative to the repository. */
export function removeAgentSource(ctx: IndexContext, nameOrPath: string): SourceSpec {
  const named = listSources(ctx).some((s) => s.name === nameOrPath);
  return removeSource(ctx, named ? nameOrPath : path.resolve(ctx.repo.root, nameOrPath));
}
