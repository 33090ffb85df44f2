import fs from 'node:fs';
import { loadConfig, type Config } from '../config/config.js';
import path from 'node:path';
import { NotInRepositoryError, openRepoWithHead, type HeadSnapshot, type RepoInfo } from '../git/repo.js';
import { assertOwnIndexFolder } from '../store/index-folder.js';
import { findIndexedFolder, folderLayout, indexLayout, type IndexLayout } from '../store/layout.js';
import { settleIndexFolder } from '../store/index-swap.js';
import { manifestKey, readManifest, type Manifest } from '../store/manifest.js';
import { storeExists } from '../store/open-store.js';
import { chunkerVersion } from '../chunk/version.js';
import { isDefaultModelSpec, SUPERSEDED_DEFAULT_MODEL_IDS } from '../embed/index.js';
import { OcragError } from '../util/errors.js';
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
  /**
   * A plain folder outside any git repository, indexed as a knowledge base of its own: no HEAD, no manifest; what
   * search sees is the folder's files and its added sources, as they are on disk (`repo.root` is the folder).
   */
  readonly plainFolder?: boolean;
}

/**
 * Outside any git repository, whether a command works on a plain folder: `create` takes the nearest folder indexed
 * before, else `cwd` itself (index, add); `existing` only a folder indexed before (search, list, status…).
 */
export type PlainFolderUse = 'create' | 'existing';

export async function openContext(cwd: string, flags: Partial<Config> = {}, plain?: PlainFolderUse): Promise<IndexContext> {
  let opened;
  try {
    opened = await openRepoWithHead(cwd);
  } catch (e) {
    if (!(e instanceof NotInRepositoryError) || !plain) throw e;
    return openPlainFolder(cwd, flags, plain);
  }
  const { repo, head } = opened;
  const layout = indexLayout(repo);
  // Before anything is read from it: its config may name sources, folders and models.
  await assertOwnIndexFolder(layout);
  const config = loadConfig(layout.config, flags);
  // Before anything reads the index: a swap a killed rebuild left half done is completed (store/index-swap.ts).
  await settleIndexFolder(layout);
  return { repo, head, layout, config };
}

async function openPlainFolder(cwd: string, flags: Partial<Config>, plain: PlainFolderUse): Promise<IndexContext> {
  const root = findIndexedFolder(cwd) ?? (plain === 'create' ? path.resolve(cwd) : null);
  if (!root) throw new OcragError(`not inside a git repository or a folder indexed by ocrag: ${cwd} (run "ocrag index" to index this folder as a knowledge base)`, 'no-workspace');
  const place = plainFolderPlace(root);
  await assertOwnIndexFolder(place.layout);
  await settleIndexFolder(place.layout);
  return { ...place, config: loadConfig(place.layout.config, flags) };
}

/** A folder outside git as a context holds it, its settings aside: no git folders, a HEAD of nulls, `.ocrag/` in it. */
export function plainFolderPlace(root: string): Omit<IndexContext, 'config'> {
  const repo = Object.freeze({ root, gitDir: '', commonDir: '', mainWorkTree: null });
  return { repo, head: Object.freeze({ branch: null, commit: null, tree: null }), layout: folderLayout(root), plainFolder: true };
}

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
