import { folderLayout } from '../../store/layout.js';
import { FOLDER_SOURCE } from '../../store/sources.js';
import { OcragError } from '../../util/errors.js';
import { folderManifest, folderReady } from '../folder.js';
import type { IndexContext, WorkspaceKind } from '../index-context.js';

/**
 * A plain folder outside any git repository, indexed as a knowledge base of its own: no HEAD and no manifest; its
 * files are a source without a name, scanned as they are on disk by every view, beside its added sources. An index
 * run makes its store ready and scans them all.
 */
export const FOLDER: WorkspaceKind = Object.freeze({
  noun: 'folder',
  ownSources: (ctx: IndexContext) => [{ name: FOLDER_SOURCE, root: ctx.repo.root, addedAt: '' }],
  baseManifest: folderManifest,
  // No HEAD to catch up with: a folder's store only has to exist; the view's scan embeds what is new.
  indexBehind: (ctx: IndexContext) => !folderReady(ctx),
  upToDate: folderReady,
  headNow: (ctx: IndexContext) => Promise.resolve(ctx.head),
  workingChanges: () => null,
  unansweredWhileRunning: async (ctx: IndexContext) => (folderReady(ctx) ? null : 'missing'),
  headFiles: () => [],
  headFolders: () => new Map(),
  checkedOut: async () => ({ branches: new Set<string>(), detached: new Set<string>() }),
  requireRepository: (ctx: IndexContext, what: string) => {
    throw new OcragError(`${what} needs a git repository, and ${ctx.repo.root} is a plain folder`, 'no-workspace');
  },
  match: (ways) => ways.folder(),
} satisfies WorkspaceKind as WorkspaceKind);

/** A folder outside git as a context holds it, its settings aside: no git folders, a HEAD of nulls, `.ocrag/` in it. */
export function folderPlace(root: string): Omit<IndexContext, 'config'> {
  const repo = Object.freeze({ root, gitDir: '', commonDir: '', mainWorkTree: null });
  return { repo, head: Object.freeze({ branch: null, commit: null, tree: null }), layout: folderLayout(root), kind: FOLDER };
}
