import fs from 'node:fs';
import type { Config } from '../config/config.js';
import type { HeadSnapshot } from '../git/repo.js';
import { manifestKey, readManifest, type Manifest } from '../store/manifest.js';
import { storeExists } from '../store/open-store.js';
import { chunkerVersion } from '../chunk/version.js';
import { isDefaultModelSpec, SUPERSEDED_DEFAULT_MODEL_IDS } from '../embed/index.js';
import { OcragError } from '../util/errors.js';
import { readJson } from '../util/json-file.js';
import { settingsKey } from './chunk-id.js';
import type { IndexContext } from './index-context.js';

// Where a git work tree's index stands against HEAD and the settings: HEAD's manifest, and whether it is current.

/** The commit HEAD points at; a repository without commits has nothing to index. */
export function requireHead(head: HeadSnapshot): { commit: string; tree: string } {
  if (!head.commit || !head.tree) throw new OcragError('the repository has no commits yet: commit something, then run ocrag index', 'no-workspace');
  return { commit: head.commit, tree: head.tree };
}

/**
 * What a manifest must match to be current: same tree and same settings. `paths` names how paths are keyed
 * (`git/path-key.ts`): a manifest of an earlier version, whose names that are not UTF-8 were folded into U+FFFD,
 * is selected again once (no content is embedded again: every blob is stored).
 */
export function selectionKey(config: Config): string {
  const { include, exclude, maxFileBytes, maxLineChars, model, skipSecrets } = config;
  return settingsKey({ include, exclude, maxFileBytes, maxLineChars, model, skipSecrets, chunker: chunkerVersion(), paths: PATH_KEYS });
}

/** The version of path keys (`git/path-key.ts`): 2, byte-exact with git's quoted form; before, names decoded as UTF-8. */
const PATH_KEYS = 2;

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
