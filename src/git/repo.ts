import path from 'node:path';
import { OcragError } from '../util/errors.js';
import { isObjectId } from './object-id.js';
import { git, GitError } from './run.js';

/** Where a repository lives: fixed for as long as ocrag runs in it, whatever is checked out. */
export interface RepoInfo {
  /** Work tree root (the folder holding the checked-out files). */
  readonly root: string;
  /** This work tree's git dir (differs per worktree). */
  readonly gitDir: string;
  /** The git dir shared by all worktrees (absolute, whatever folder git was asked from). */
  readonly commonDir: string;
  /**
   * The main worktree's root, as git reckons it (`git worktree list`'s first entry): the folder holding the common
   * `.git`; null when the repository is bare or its git dir lives apart from its work tree (a submodule,
   * `--separate-git-dir`). Undefined only in a RepoInfo made by hand, which then is a plain `<root>/.git` clone.
   */
  readonly mainWorkTree?: string | null;
}

/**
 * What HEAD pointed at when it was read. A frozen value: whoever follows checkouts and commits reads a new one,
 * so a run that was handed one keeps working for the commit it started on.
 */
export interface HeadSnapshot {
  /** Branch short name, or null when HEAD is detached. */
  readonly branch: string | null;
  /** HEAD commit, or null in a repository with no commits yet. */
  readonly commit: string | null;
  /** HEAD's root tree, or null with no commits. */
  readonly tree: string | null;
}

/** A repository as found, and its HEAD at that moment. */
export interface OpenedRepo {
  readonly repo: RepoInfo;
  readonly head: HeadSnapshot;
}

/** `cwd` is in no git repository: exit 3, unless the caller takes the folder as a knowledge base of its own. */
export class NotInRepositoryError extends OcragError {
  constructor(readonly cwd: string) {
    super(`not inside a git repository: ${cwd} (this command needs one; in a plain folder, index, search, add, remove, list, status, gc, watch, doctor, ui, mcp and setup work)`, 'no-workspace');
  }
}

/**
 * A repository another user owns: git itself refuses it (its config could name programs to run), and so does
 * ocrag, with git's own way to say it is trusted.
 */
export class ForeignRepositoryError extends OcragError {
  constructor(readonly at: string) {
    super(`git refuses ${at}: it belongs to another user; if you trust it, run "git config --global --add safe.directory '${at}'"`, 'no-workspace');
  }
}

/** Finds the repository that contains `cwd` (any subfolder works). */
export async function openRepo(cwd: string): Promise<RepoInfo> {
  return (await openRepoWithHead(cwd)).repo;
}

/** Finds the repository that contains `cwd` and reads HEAD. */
export async function openRepoWithHead(cwd: string): Promise<OpenedRepo> {
  return (await openRepoAtOnce(cwd)) ?? openRepoStepwise(cwd);
}

/**
 * Where the repository is, every path absolute and physical. Git prints `--git-common-dir` relative to the folder
 * it was asked from (`../../.git` from `src/x`), so it must never be joined onto anything: `--path-format=absolute`
 * (git 2.31) has git resolve it, through symlinked folders too.
 */
const LOCATION = ['rev-parse', '--path-format=absolute', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'];

/**
 * The common case, a work tree with commits, in one git process (a one-shot search pays for each). Anything
 * else (no commits, bare, a file named HEAD) fails here and gets the stepwise path with its precise errors.
 */
async function openRepoAtOnce(cwd: string): Promise<OpenedRepo | null> {
  let lines: string[];
  try {
    lines = (await git([...LOCATION, 'HEAD', 'HEAD^{tree}', '--symbolic-full-name', 'HEAD'], { cwd })).split('\n');
  } catch {
    return null;
  }
  if (lines.length !== 6 || !isObjectId(lines[3]) || !isObjectId(lines[4])) return null;
  const [root, gitDir, commonDir, commit, tree, ref] = lines;
  const head = headSnapshot(ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null, commit, tree);
  return { repo: await repoInfo(root, gitDir, commonDir), head };
}

async function openRepoStepwise(cwd: string): Promise<OpenedRepo> {
  let lines: string[];
  try {
    const out = await git(LOCATION, { cwd });
    lines = out.split('\n');
  } catch (e) {
    if (e instanceof GitError && /not a git repository/i.test(e.stderr)) throw new NotInRepositoryError(cwd);
    const dubious = e instanceof GitError ? /detected dubious ownership in repository at '(.*)'/.exec(e.stderr) : null;
    if (dubious) throw new ForeignRepositoryError(dubious[1]);
    if (e instanceof GitError && /must be run in a work tree/i.test(e.stderr)) throw await notInWorkTree(cwd);
    throw e;
  }
  if (lines.length < 3) throw new OcragError(`not inside a git work tree: ${cwd}`, 'no-workspace');
  const [root, gitDir, commonDir] = lines;
  return { repo: await repoInfo(root, gitDir, commonDir), head: await readHead(root) };
}

/** A bare repository, or a folder inside a work tree's git folder (`.git/objects`), which git sees as bare too. */
async function notInWorkTree(cwd: string): Promise<OcragError> {
  const [bare, gitDir] = (await git(['rev-parse', '--is-bare-repository', '--absolute-git-dir'], { cwd }).catch(() => 'true')).split('\n');
  if (bare === 'false' && gitDir && path.basename(gitDir) === '.git') {
    return new OcragError(`${cwd} is inside the git folder of ${path.dirname(gitDir)}: run ocrag in its work tree (ocrag -C '${path.dirname(gitDir)}' …)`, 'no-workspace');
  }
  return new OcragError('bare repository: ocrag indexes a work tree; run it in a clone with a checkout', 'no-workspace');
}

async function repoInfo(root: string, gitDir: string, commonDir: string): Promise<RepoInfo> {
  if (![root, gitDir, commonDir].every((p) => path.isAbsolute(p))) throw new OcragError('git printed a relative path: ocrag needs git 2.31 or newer (see "git --version")', 'failed');
  return Object.freeze({ root, gitDir, commonDir, mainWorkTree: await mainWorkTreeOf(root, gitDir, commonDir) });
}

/**
 * The main worktree's root. From the main worktree itself it is this root when the git dir is `<root>/.git` (a
 * common dir elsewhere, as a submodule's or `GIT_DIR`'s, has none ocrag may write beside). From a linked one,
 * it is the folder holding the common `.git`, unless the repository is bare (a bare clone may be named `.git`
 * too, its worktrees beside it: that folder is nobody's work tree); only then is git asked, once.
 */
async function mainWorkTreeOf(root: string, gitDir: string, commonDir: string): Promise<string | null> {
  if (gitDir === commonDir) return commonDir === path.join(root, '.git') ? root : null;
  if (path.basename(commonDir) !== '.git') return null;
  const bare = await git(['config', '--type=bool', '--get', 'core.bare'], { cwd: root, okCodes: [1] });
  return bare === 'true' ? null : path.dirname(commonDir);
}

/** Reads branch, commit and tree of HEAD; cheap enough to call before every search. */
export async function readHead(root: string): Promise<HeadSnapshot> {
  const [branchOut, headOut] = await Promise.all([
    git(['symbolic-ref', '-q', '--short', 'HEAD'], { cwd: root, okCodes: [1] }),
    commitAndTree(root, 'HEAD'),
  ]);
  const [commit, tree] = headOut.split('\n');
  return headSnapshot(branchOut || null, commit || null, tree || null);
}

function headSnapshot(branch: string | null, commit: string | null, tree: string | null): HeadSnapshot {
  return Object.freeze({ branch, commit, tree });
}

/** Resolves any revision to its commit and root tree. */
export async function resolveRevision(root: string, rev: string): Promise<{ commit: string; tree: string }> {
  if (rev.startsWith('-')) throw new OcragError(`invalid revision: ${rev}`);
  const [commit, tree] = (await commitAndTree(root, rev)).split('\n');
  if (!commit || !tree) throw new OcragError(`unknown revision: ${rev}`);
  return { commit, tree };
}

/**
 * The root commit HEAD's first-parent line starts from, which names a repository in every full clone of it (a
 * merged-in history adds roots but not to that line); null in a shallow clone, whose oldest commit is only where
 * its history was cut, or with no commits.
 */
export async function rootCommit(root: string): Promise<string | null> {
  if ((await git(['rev-parse', '--is-shallow-repository'], { cwd: root })) === 'true') return null;
  const roots = await git(['rev-list', '--first-parent', '--max-parents=0', 'HEAD', '--'], { cwd: root, okCodes: [128] });
  const first = roots.split('\n')[0];
  return isObjectId(first) ? first : null;
}

/**
 * "<commit>\n<tree>" of a revision, or "" when it names no commit (e.g. HEAD of an empty repository). `log -1`,
 * not `show`: show reads the parent's tree too, which a treeless partial clone may lack (ocrag never fetches it).
 */
function commitAndTree(root: string, rev: string): Promise<string> {
  return git(['log', '-1', '--no-show-signature', '--format=%H%n%T', `${rev}^{commit}`, '--'], { cwd: root, okCodes: [128] });
}
