import fs from 'node:fs';
import path from 'node:path';
import type { RepoInfo } from '../git/repo.js';
import { nearestFolderUp } from '../util/folders-up.js';

/** Where one store lives: its tables, and the files beside them that are the store's own. */
export interface StoreLocation {
  /** The tables: a local folder, or a URI (`s3://…`, `file://…`) on a team's object store (see open-store.ts). */
  tables: string;
  /** What LanceDB needs to reach tables at a URI (object-store.ts): credentials among them, so held in memory only. */
  storageOptions?: Record<string, string>;
  /** The lock writers of the tables take turns under (see lance/lance-store.ts). */
  writeLock: string;
  /** Present once a large view was indexed in the store: it has the indexes such views are searched through (large-store.ts). */
  searchIndexes: string;
}

/** Files and folders of an index, all under `.ocrag/` at the work tree root. */
export interface IndexLayout extends StoreLocation {
  dir: string;
  /**
   * The work tree whose top the index folder sits at, whose git could be tracking it (index-folder.ts refuses it
   * then), and that work tree's git index file; null when it sits inside a git dir or in a plain folder.
   */
  trackedIn: { workTree: string; gitIndex: string; gitExclude: string } | null;
  /** Outside git, where nothing says where a folder came from: only one this machine made is ours (index-folder.ts). */
  plain: boolean;
  /** ocrag's record that the folder is its own: made here, and untracked by git as of when (index-folder.ts). */
  ownMark: string;
  config: string;
  meta: string;
  manifests: string;
  log: string;
  lock: string;
  /** Left by a hook that found the index lock taken: the run holding it indexes once more. */
  pending: string;
  /** The index run going on now, as its process reports it (service/run-record.ts), for every other process to show. */
  run: string;
  /** Search's snapshots of the store's rows (search/resident-snapshot.ts): they go with the store. */
  resident: string;
  /** Views search found past the in-memory budget (search/view-budget.ts): a cache that goes with the store. */
  largeViews: string;
  /** Where this process builds a new store before moving it into place (staging.ts). */
  staging: string;
  /** The store's size when automatic gc last looked (index/gc-policy.ts): it looks again only after growth. */
  gcCheck: string;
  /** The sources the user added (store/sources.ts): the user's, kept when the index is cleared. */
  sources: string;
  /** Each source's last scan: derived, cleared with the store. */
  sourceScans: string;
  /** What the last index run copied from the remote store (store/remote-run.ts), for `ocrag status`. */
  remoteRun: string;
  /** Present while a full rebuild moves its new index into place (store/index-swap.ts): the next open completes it. */
  rebuildSwap: string;
  /**
   * This machine's secret that picks which rows from outside are re-chunked and re-embedded (index/verify/sample.ts):
   * kept with the index, never shared, so whoever makes an artifact or a remote cannot know which rows are checked.
   */
  verifyKey: string;
  /** An empty git folder through which git lists a folder outside git by its ignore files (git/folder-files.ts). */
  walkGit: string;
}

const STAGING_PREFIX = 'staging-';

/**
 * The one answer to where a repository's index lives, whichever of its folders or worktrees ocrag runs in. One
 * index per repository, shared by all its worktrees: `.ocrag/` in the main worktree (beside the common .git), or
 * `ocrag/` inside the common git dir when there is no main worktree beside it (a bare repository, a submodule).
 * Manifests are keyed by branch (git lets a branch be checked out in one worktree only) or detached commit, so
 * worktrees share vectors and manifests, while each computes its own uncommitted overlay at search time.
 */
export function indexLayout(repo: Pick<RepoInfo, 'root' | 'commonDir' | 'mainWorkTree'>): IndexLayout {
  const workTree = mainWorkTree(repo);
  if (workTree === null) return layoutIn(path.join(repo.commonDir, 'ocrag'), null, false);
  // The main worktree's git dir is the common one: its index file is there.
  return layoutIn(path.join(workTree, INDEX_FOLDER), { workTree, gitIndex: path.join(repo.commonDir, 'index'), gitExclude: path.join(repo.commonDir, 'info', 'exclude') }, false);
}

/** A RepoInfo made by hand (tests) names no main worktree: it is a plain clone, `<root>/.git`. */
function mainWorkTree(repo: Pick<RepoInfo, 'commonDir' | 'mainWorkTree'>): string | null {
  if (repo.mainWorkTree !== undefined) return repo.mainWorkTree;
  return path.basename(repo.commonDir) === '.git' ? path.dirname(repo.commonDir) : null;
}

const INDEX_FOLDER = '.ocrag';

/** A plain folder's own index (no git): `.ocrag/` in it, as in a work tree. */
export function folderLayout(root: string): IndexLayout {
  return layoutIn(path.join(root, INDEX_FOLDER), null, true);
}

/**
 * The nearest folder from `cwd` up that holds an index folder (a plain folder indexed before), or null. Another
 * user's (`/tmp/.ocrag`) is no index of this user's: passed by, never used nor refused.
 */
export function findIndexedFolder(cwd: string): string | null {
  const uid = process.geteuid?.();
  return nearestFolderUp(cwd, (dir) => {
    const layout = folderLayout(dir);
    return (fs.existsSync(layout.meta) || fs.existsSync(layout.sources) || fs.existsSync(layout.rebuildSwap)) && (uid === undefined || fs.lstatSync(layout.dir).uid === uid);
  });
}

function layoutIn(dir: string, trackedIn: IndexLayout['trackedIn'], plain: boolean): IndexLayout {
  return {
    dir,
    trackedIn,
    plain,
    ownMark: path.join(dir, 'own.json'),
    config: path.join(dir, 'config.json'),
    meta: path.join(dir, 'store.json'),
    ...storeLocation(dir),
    manifests: path.join(dir, 'manifests'),
    log: path.join(dir, 'log'),
    lock: path.join(dir, 'index.lock'),
    pending: path.join(dir, 'index.pending'),
    run: path.join(dir, 'run.json'),
    resident: path.join(dir, 'resident'),
    largeViews: path.join(dir, 'large-views.json'),
    staging: path.join(dir, `${STAGING_PREFIX}${process.pid}`),
    gcCheck: path.join(dir, 'gc-check.json'),
    sources: path.join(dir, 'sources.json'),
    sourceScans: path.join(dir, 'source-scans'),
    remoteRun: path.join(dir, 'remote-run.json'),
    rebuildSwap: path.join(dir, 'rebuild-swap.json'),
    verifyKey: path.join(dir, 'verify-key'),
    walkGit: path.join(dir, 'walk.git'),
  };
}

/**
 * The layout a full rebuild writes beside the index (index/rebuild.ts): the store and all derived from it in this
 * process's staging folder, to be swapped in once complete; the user's files (config, sources), the log, the
 * locks and the verifier's key stay the index's own.
 */
export function stagedLayout(layout: IndexLayout): IndexLayout {
  const { config, sources, log, lock, pending, run, ownMark, verifyKey } = layout;
  // Whose folder it is was settled for the index folder it lies in (store/index-folder.ts), whose mark stays there;
  // the verifier's secret stays too, so a rebuild does not tell anyone which rows the next sample picks.
  return { ...layoutIn(layout.staging, null, false), config, sources, log, lock, pending, run, ownMark, verifyKey };
}

/** A local store kept in this folder: the index's own (`.ocrag/`), or a staging folder. */
export function storeLocation(dir: string): StoreLocation {
  return { tables: path.join(dir, 'lance'), writeLock: path.join(dir, 'write.lock'), searchIndexes: path.join(dir, 'search-indexes.json') };
}

/** Every staging folder in the index folder: this process's, and any a killed one left behind. */
export function stagingFolders(layout: Pick<IndexLayout, 'dir'>): string[] {
  try {
    return fs
      .readdirSync(layout.dir)
      .filter((name) => name.startsWith(STAGING_PREFIX))
      .map((name) => path.join(layout.dir, name));
  } catch {
    return [];
  }
}

/**
 * What clearing the index removes: the store, what is derived from it (manifests, identity, search snapshots, large
 * views and marker) and what a killed import was staging. Never the user's config, the log or a lock.
 */
export function storeEntries(layout: IndexLayout): string[] {
  return [...swappedEntries(layout), layout.rebuildSwap, ...stagingFolders(layout)];
}

/**
 * What a full rebuild replaces, in the order it moves them into place: the store and all derived from it. The
 * store's record (store.json) goes last: it names the store's generation, which search caches are keyed by.
 */
export function swappedEntries(layout: IndexLayout): string[] {
  return [layout.tables, layout.searchIndexes, layout.manifests, layout.resident, layout.largeViews, layout.gcCheck, layout.sourceScans, layout.remoteRun, layout.meta];
}

/**
 * Keeps `.ocrag/` out of `git status` through the repository's own exclude file (in the common git dir, which
 * every worktree reads), never the user's .gitignore. An index kept inside the git dir needs none.
 */
export function ensureGitExclude(repo: Pick<RepoInfo, 'commonDir' | 'mainWorkTree'>): void {
  if (mainWorkTree(repo) === null) return;
  excludeIndexFolder(path.join(repo.commonDir, 'info', 'exclude'));
}

/** Adds `/.ocrag/` to a git exclude file unless a line already says it. */
export function excludeIndexFolder(file: string): void {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
  }
  if (text.split('\n').some((line) => line.trim() === '.ocrag/' || line.trim() === '/.ocrag/')) return;
  fs.appendFileSync(file, `${text && !text.endsWith('\n') ? '\n' : ''}# ocrag index\n/.ocrag/\n`);
}
