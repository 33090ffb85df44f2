import { readHead } from '../git/repo.js';
import { workingChanges } from '../git/status.js';
import { folderReady } from '../index/folder.js';
import { currentManifest, isUpToDate, type IndexContext } from '../index/context.js';

/**
 * Where the index stands against what the user sees, asked without moving an index's idea of HEAD (a run may be
 * using it): git's HEAD now, the uncommitted edits, whether an index run is due. A plain folder has no HEAD and no
 * edits apart from its files: its index is due only until its store is made.
 */

/** Whether an index run is due for `ctx`'s HEAD (indexed with these settings?) or, for a folder, its store. */
export function indexBehind(ctx: IndexContext): boolean {
  return ctx.plainFolder ? !folderReady(ctx) : !isUpToDate(ctx, currentManifest(ctx));
}

/** HEAD as git holds it now; a folder has none. */
export function headNow(ctx: IndexContext): Promise<IndexContext['head']> {
  return ctx.plainFolder ? Promise.resolve(ctx.head) : readHead(ctx.repo.root);
}

/** Uncommitted edits and untracked files a view lays over HEAD's index; null where there is no git to ask. */
export function uncommittedChanges(ctx: IndexContext): Promise<number | null> {
  if (ctx.plainFolder) return Promise.resolve(null);
  return workingChanges(ctx.repo.root).then(
    (changes) => changes.length,
    () => null,
  );
}

/**
 * While a run of this index works for `ctx.head`, why answering "from the index as it is" would be wrong or
 * impossible: HEAD moved off that commit and has no index of its own ('moved'; the run won't give it one), or the
 * run will give HEAD (or a folder) its first index ('missing'). Null when it can be answered now.
 */
export async function unansweredWhileRunning(ctx: IndexContext): Promise<'moved' | 'missing' | null> {
  if (ctx.plainFolder) return folderReady(ctx) ? null : 'missing';
  const head = await headNow(ctx);
  if (!head.commit) return null;
  const now = { ...ctx, head };
  const manifest = currentManifest(now);
  if (isUpToDate(now, manifest)) return null;
  const target = ctx.head;
  if (head.commit !== target.commit || head.branch !== target.branch) return 'moved';
  return manifest ? null : 'missing';
}
