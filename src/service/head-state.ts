import type { IndexContext } from '../index/index-context.js';

/**
 * Where the index stands against what the user sees, asked without moving an index's idea of HEAD (a run may be
 * using it): git's HEAD now, the uncommitted edits, whether an index run is due. Each kind of workspace answers
 * (index/kinds/): a plain folder has no HEAD and no edits apart from its files.
 */

/** Whether an index run is due for `ctx`'s HEAD (indexed with these settings?) or, for a folder, its store. */
export function indexBehind(ctx: IndexContext): boolean {
  return ctx.kind.indexBehind(ctx);
}

/** HEAD as git holds it now; a folder has none. */
export function headNow(ctx: IndexContext): Promise<IndexContext['head']> {
  return ctx.kind.headNow(ctx);
}

/** Uncommitted edits and untracked files a view lays over HEAD's index; null where there is no git to ask. */
export function uncommittedChanges(ctx: IndexContext): Promise<number | null> {
  const changes = ctx.kind.workingChanges(ctx);
  return changes ? changes.then((c) => c.length, () => null) : Promise.resolve(null);
}

/** While a run of this index works for `ctx.head`, why answering from the index as it is would be wrong (see WorkspaceKind). */
export function unansweredWhileRunning(ctx: IndexContext): Promise<'moved' | 'missing' | null> {
  return ctx.kind.unansweredWhileRunning(ctx);
}
