import path from 'node:path';
import { UsageError } from '../util/errors.js';
import { isObjectId } from './object-id.js';
import { git, GitError } from './run.js';

/** Where a repository lives and what is checked out. */
export interface RepoInfo {
  /** Work tree root (the folder holding the checked-out files). */
  root: string;
  /** This work tree's git dir (differs per worktree). */
  gitDir: string;
  /** The git dir shared by all worktrees. */
  commonDir: string;
  /** Branch short name, or null when HEAD is detached. */
  branch: string | null;
  /** HEAD commit, or null in a repository with no commits yet. */
  head: string | null;
  /** HEAD's root tree, or null with no commits. */
  tree: string | null;
}

/** Finds the repository that contains `cwd` (any subfolder works) and reads HEAD. */
export async function openRepo(cwd: string): Promise<RepoInfo> {
  return (await openRepoAtOnce(cwd)) ?? openRepoStepwise(cwd);
}

/**
 * The common case, a work tree with commits, in one git process (a one-shot search pays for each). Anything
 * else (no commits, bare, a file named HEAD) fails here and gets the stepwise path with its precise errors.
 */
async function openRepoAtOnce(cwd: string): Promise<RepoInfo | null> {
  let lines: string[];
  try {
    lines = (await git(['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir', 'HEAD', 'HEAD^{tree}', '--symbolic-full-name', 'HEAD'], { cwd })).split('\n');
  } catch {
    return null;
  }
  if (lines.length !== 6 || !isObjectId(lines[3]) || !isObjectId(lines[4])) return null;
  const [root, gitDir, common, head, tree, ref] = lines;
  return { root, gitDir, commonDir: path.resolve(root, common), branch: ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null, head, tree };
}

async function openRepoStepwise(cwd: string): Promise<RepoInfo> {
  let lines: string[];
  try {
    const out = await git(['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'], { cwd });
    lines = out.split('\n');
  } catch (e) {
    if (e instanceof GitError && /not a git repository/i.test(e.stderr)) {
      throw new UsageError(`not inside a git repository: ${cwd} (run ocrag from a folder of one)`, 3);
    }
    if (e instanceof GitError && /must be run in a work tree/i.test(e.stderr)) {
      throw new UsageError('bare repository: ocrag indexes a work tree; run it in a clone with a checkout', 3);
    }
    throw e;
  }
  if (lines.length < 3) throw new UsageError(`not inside a git work tree: ${cwd}`, 3);
  const [root, gitDir, common] = lines;
  const commonDir = path.resolve(root, common);
  const state = await readHead(root);
  return { root, gitDir, commonDir, ...state };
}

/** Reads branch, commit and tree of HEAD; cheap enough to call before every search. */
export async function readHead(root: string): Promise<Pick<RepoInfo, 'branch' | 'head' | 'tree'>> {
  const [branchOut, headOut] = await Promise.all([
    git(['symbolic-ref', '-q', '--short', 'HEAD'], { cwd: root, okCodes: [1] }),
    commitAndTree(root, 'HEAD'),
  ]);
  const [head, tree] = headOut.split('\n');
  return { branch: branchOut || null, head: head || null, tree: tree || null };
}

/** Resolves any revision to its commit and root tree. */
export async function resolveRevision(root: string, rev: string): Promise<{ commit: string; tree: string }> {
  if (rev.startsWith('-')) throw new UsageError(`invalid revision: ${rev}`);
  const [commit, tree] = (await commitAndTree(root, rev)).split('\n');
  if (!commit || !tree) throw new UsageError(`unknown revision: ${rev}`);
  return { commit, tree };
}

/** "<commit>\n<tree>" of a revision, or "" when it names no commit (e.g. HEAD of an empty repository). */
function commitAndTree(root: string, rev: string): Promise<string> {
  return git(['show', '-s', '--format=%H%n%T', `${rev}^{commit}`, '--'], { cwd: root, okCodes: [128] });
}
