import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../config/config.js';
import { NotInRepositoryError, openRepoWithHead } from '../git/repo.js';
import { workingChanges } from '../git/status.js';
import { assertOwnIndexFolder } from '../store/index-folder.js';
import { findIndexedFolder, indexLayout } from '../store/layout.js';
import { settleIndexFolder } from '../store/index-swap.js';
import { OcragError } from '../util/errors.js';
import { nearestFolderUp } from '../util/folders-up.js';
import type { IndexContext, PlainFolderUse } from './index-context.js';
import { folderPlace } from './kinds/folder.js';
import { GIT, gitWithStatusStarted } from './kinds/git.js';

/**
 * `statusAtOpen`: a one-shot search, whose view lays the work tree's changes over HEAD's index. Its `git status`
 * starts here, alongside the `git rev-parse` that finds the repository, instead of after the index is opened: on a
 * loaded machine the search waited for it (status gives paths from the top of the work tree whatever folder it is
 * run in). HEAD and the work tree are then read at the same moment. Outside git (no `.git` here or above) none starts.
 */
export async function openContext(cwd: string, flags: Partial<Config> = {}, plain?: PlainFolderUse, statusAtOpen = false): Promise<IndexContext> {
  const status = statusAtOpen && underGit(cwd) ? workingChanges(cwd) : null;
  status?.catch(() => undefined);
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
  return { repo, head, layout, config, kind: status ? gitWithStatusStarted(status) : GIT };
}

/** Whether a `.git` lies in `dir` or above it: a plain folder's search starts no git status that can only fail. */
function underGit(dir: string): boolean {
  return nearestFolderUp(dir, (at) => fs.existsSync(path.join(at, '.git'))) !== null;
}

async function openPlainFolder(cwd: string, flags: Partial<Config>, plain: PlainFolderUse): Promise<IndexContext> {
  const root = findIndexedFolder(cwd) ?? (plain === 'create' ? path.resolve(cwd) : null);
  if (!root) throw new OcragError(`not inside a git repository or a folder indexed by ocrag: ${cwd} (run "ocrag index" to index this folder as a knowledge base)`, 'no-workspace');
  const place = folderPlace(root);
  await assertOwnIndexFolder(place.layout);
  await settleIndexFolder(place.layout);
  return { ...place, config: loadConfig(place.layout.config, flags) };
}
