import fs from 'node:fs';
import path from 'node:path';
import type { RepoInfo } from '../git/repo.js';

/** Files and folders of an index, all under `.ocrag/` at the work tree root. */
export interface IndexLayout {
  dir: string;
  config: string;
  meta: string;
  lance: string;
  manifests: string;
  log: string;
  lock: string;
}

/**
 * One index per repository, shared by all its worktrees: `.ocrag/` in the main worktree (beside the common
 * .git), or `ocrag/` inside the common git dir when the main repository is bare. Manifests are keyed by
 * branch (git lets a branch be checked out in one worktree only) or detached commit, so worktrees share
 * vectors and manifests, while each computes its own uncommitted overlay at search time.
 */
export function indexLayout(repo: Pick<RepoInfo, 'root' | 'commonDir'>): IndexLayout {
  const dir = path.basename(repo.commonDir) === '.git' ? path.join(path.dirname(repo.commonDir), '.ocrag') : path.join(repo.commonDir, 'ocrag');
  return {
    dir,
    config: path.join(dir, 'config.json'),
    meta: path.join(dir, 'store.json'),
    lance: path.join(dir, 'lance'),
    manifests: path.join(dir, 'manifests'),
    log: path.join(dir, 'log'),
    lock: path.join(dir, 'index.lock'),
  };
}

/** Keeps `.ocrag/` out of `git status` through the repository's own exclude file, never the user's .gitignore. */
export function ensureGitExclude(repo: Pick<RepoInfo, 'commonDir'>): void {
  const file = path.join(repo.commonDir, 'info', 'exclude');
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
  }
  if (text.split('\n').some((line) => line.trim() === '.ocrag/' || line.trim() === '/.ocrag/')) return;
  fs.appendFileSync(file, `${text && !text.endsWith('\n') ? '\n' : ''}# ocrag index\n/.ocrag/\n`);
}
