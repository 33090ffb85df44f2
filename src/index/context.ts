import fs from 'node:fs';
import { loadConfig, type Config } from '../config/config.js';
import { openRepo, type RepoInfo } from '../git/repo.js';
import { indexLayout, type IndexLayout } from '../store/layout.js';
import { manifestKey, readManifest, type Manifest } from '../store/manifest.js';
import { storeExists } from '../store/open-store.js';
import { CHUNKER_VERSION } from '../chunk/version.js';
import { isDefaultModelSpec, SUPERSEDED_DEFAULT_MODEL_IDS } from '../embed/index.js';
import { UsageError } from '../util/errors.js';
import { readJson } from '../util/json-file.js';
import { settingsKey } from './chunk-id.js';

/** Everything a command needs to know about where it runs, read once per command. */
export interface IndexContext {
  repo: RepoInfo;
  layout: IndexLayout;
  config: Config;
}

export async function openContext(cwd: string, flags: Partial<Config> = {}): Promise<IndexContext> {
  const repo = await openRepo(cwd);
  const layout = indexLayout(repo);
  const config = loadConfig(layout.config, flags);
  return { repo, layout, config };
}

/** The commit HEAD points at; a repository without commits has nothing to index. */
export function requireHead(repo: RepoInfo): { commit: string; tree: string } {
  if (!repo.head || !repo.tree) throw new UsageError('the repository has no commits yet: commit something, then run ocrag index', 3);
  return { commit: repo.head, tree: repo.tree };
}

/** What a manifest must match to be current: same tree and same settings. */
export function selectionKey(config: Config): string {
  const { include, exclude, maxFileBytes, maxLineChars, model, skipSecrets } = config;
  return settingsKey({ include, exclude, maxFileBytes, maxLineChars, model, skipSecrets, chunker: CHUNKER_VERSION });
}

export function currentManifest(ctx: IndexContext): Manifest | null {
  if (!ctx.repo.head) return null;
  return readManifest(ctx.layout.manifests, manifestKey(ctx.repo.branch, ctx.repo.head));
}

/** True when the checked-out tree was indexed with the current settings: nothing to do. */
export function isUpToDate(ctx: IndexContext, manifest: Manifest | null): boolean {
  return !!manifest && manifest.tree === ctx.repo.tree && manifest.selectionKey === selectionKey(ctx.config) && fs.existsSync(ctx.layout.meta) && storeExists(ctx.layout) && !supersededDefaultModel(ctx);
}

/** The old default model's id when the store was built with it and the default model is configured, else null. */
export function supersededDefaultModel(ctx: IndexContext): string | null {
  if (!isDefaultModelSpec(ctx.config.model)) return null;
  const modelId = readJson<{ modelId?: string }>(ctx.layout.meta)?.modelId;
  return modelId && SUPERSEDED_DEFAULT_MODEL_IDS.has(modelId) ? modelId : null;
}
