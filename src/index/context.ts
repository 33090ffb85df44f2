import fs from 'node:fs';
import { loadConfig, type Config } from '../config/config.js';
import { openRepoWithHead, type HeadSnapshot, type RepoInfo } from '../git/repo.js';
import { indexLayout, type IndexLayout } from '../store/layout.js';
import { manifestKey, readManifest, type Manifest } from '../store/manifest.js';
import { storeExists } from '../store/open-store.js';
import { chunkerVersion } from '../chunk/version.js';
import { isDefaultModelSpec, SUPERSEDED_DEFAULT_MODEL_IDS } from '../embed/index.js';
import { UsageError } from '../util/errors.js';
import { readJson } from '../util/json-file.js';
import { settingsKey } from './chunk-id.js';

/**
 * Everything a command needs to know about where it runs, read once per command. A long-lived caller that
 * follows HEAD makes a new context with the new snapshot; a run keeps the context it was given.
 */
export interface IndexContext {
  readonly repo: RepoInfo;
  readonly head: HeadSnapshot;
  readonly layout: IndexLayout;
  readonly config: Config;
}

export async function openContext(cwd: string, flags: Partial<Config> = {}): Promise<IndexContext> {
  const { repo, head } = await openRepoWithHead(cwd);
  const layout = indexLayout(repo);
  const config = loadConfig(layout.config, flags);
  return { repo, head, layout, config };
}

/** The commit HEAD points at; a repository without commits has nothing to index. */
export function requireHead(head: HeadSnapshot): { commit: string; tree: string } {
  if (!head.commit || !head.tree) throw new UsageError('the repository has no commits yet: commit something, then run ocrag index', 3);
  return { commit: head.commit, tree: head.tree };
}

/** What a manifest must match to be current: same tree and same settings. */
export function selectionKey(config: Config): string {
  const { include, exclude, maxFileBytes, maxLineChars, model, skipSecrets } = config;
  return settingsKey({ include, exclude, maxFileBytes, maxLineChars, model, skipSecrets, chunker: chunkerVersion() });
}

export function currentManifest(ctx: IndexContext): Manifest | null {
  if (!ctx.head.commit) return null;
  return readManifest(ctx.layout.manifests, manifestKey(ctx.head.branch, ctx.head.commit));
}

/** True when the checked-out tree was indexed with the current settings: nothing to do. */
export function isUpToDate(ctx: IndexContext, manifest: Manifest | null): boolean {
  return !!manifest && manifest.tree === ctx.head.tree && manifest.selectionKey === selectionKey(ctx.config) && fs.existsSync(ctx.layout.meta) && storeExists(ctx.layout) && !supersededDefaultModel(ctx);
}

/** The old default model's id when the store was built with it and the default model is configured, else null. */
export function supersededDefaultModel(ctx: IndexContext): string | null {
  if (!isDefaultModelSpec(ctx.config.model)) return null;
  const modelId = readJson<{ modelId?: string }>(ctx.layout.meta)?.modelId;
  return modelId && SUPERSEDED_DEFAULT_MODEL_IDS.has(modelId) ? modelId : null;
}
