import { headFiles, headFolders } from '../../git/head-file.js';
import { readHead } from '../../git/repo.js';
import { workingChanges, type WorkingChange } from '../../git/status.js';
import { withUncheckedEdits } from '../../git/unchecked-files.js';
import { checkedOut } from '../../git/worktrees.js';
import type { IndexContext, WorkspaceKind } from '../index-context.js';
import { currentManifest, isUpToDate } from '../manifest-state.js';

/**
 * A git work tree (or worktree): views start from the manifest of HEAD's commit, with uncommitted edits and
 * untracked files laid over it; an index run indexes HEAD; HEAD and its branch are followed.
 */
export const GIT: WorkspaceKind = Object.freeze({
  noun: 'repository',
  ownSources: () => [],
  baseManifest: currentManifest,
  indexBehind: (ctx: IndexContext) => !isUpToDate(ctx, currentManifest(ctx)),
  upToDate: (ctx: IndexContext) => isUpToDate(ctx, currentManifest(ctx)),
  headNow: (ctx: IndexContext) => readHead(ctx.repo.root),
  workingChanges: (ctx: IndexContext) => withUncheckedEdits(ctx.repo.root, ctx.repo.gitDir, workingChanges(ctx.repo.root)),
  unansweredWhileRunning,
  headFiles: (ctx: IndexContext) => headFiles(ctx.repo),
  headFolders: (ctx: IndexContext) => headFolders(ctx.repo),
  checkedOut: (ctx: IndexContext) => checkedOut(ctx.repo.root),
  requireRepository: () => undefined,
  match: (ways) => ways.git(),
} satisfies WorkspaceKind as WorkspaceKind);

/**
 * GIT, with `git status` started already for this work tree (context.ts, `statusAtOpen`): the first view takes its
 * answer, any later one asks git again.
 */
export function gitWithStatusStarted(started: Promise<WorkingChange[]>): WorkspaceKind {
  let early: Promise<WorkingChange[]> | null = started;
  const changes = (ctx: IndexContext) => {
    const answer = early ? withUncheckedEdits(ctx.repo.root, ctx.repo.gitDir, early) : GIT.workingChanges(ctx);
    early = null;
    return answer;
  };
  return Object.freeze({ ...GIT, workingChanges: changes });
}

/**
 * While a run of this index works for `ctx.head`, why answering "from the index as it is" would be wrong or
 * impossible: HEAD moved off that commit and has no index of its own ('moved'; the run won't give it one), or the
 * run will give HEAD its first index ('missing'). Null when it can be answered now.
 */
async function unansweredWhileRunning(ctx: IndexContext): Promise<'moved' | 'missing' | null> {
  const head = await readHead(ctx.repo.root);
  if (!head.commit) return null;
  const now = { ...ctx, head };
  const manifest = currentManifest(now);
  if (isUpToDate(now, manifest)) return null;
  const target = ctx.head;
  if (head.commit !== target.commit || head.branch !== target.branch) return 'moved';
  return manifest ? null : 'missing';
}
