import fs from 'node:fs';
import path from 'node:path';
import { trackedCount } from '../git/index-file.js';
import { EARLY_FILES } from '../index/early/early-budget.js';
import { ensureGitExclude } from '../store/layout.js';
import { plainCloneAbove } from '../store/plain-clone.js';

/**
 * A one-shot search in a fresh clone starts the background index run (`start`, the run an early answer leaves
 * behind, early-answer.ts) before it loads anything, rather than once its answer is ready: on tokio the run then
 * began ~1 s later, a second Node start after the search's own, so the first search took 1.3-1.4x an `ocrag index`
 * to leave the clone indexed (issue 31). Asked from the file system alone, no git process: a plain clone (a `.git`
 * folder, found as git would find it) with no index folder, whose git index tracks more files than an early answer
 * reads (fewer: the search indexes them itself, as quick). Anything else, or any doubt: null, and the search starts
 * the run later if it needs one. Git is told to ignore the index folder first, so no `git status` of the search
 * (its early answer asks whether the work tree has edits) sees the folder the run makes. The root it started for.
 */
export function startIndexEarly(cwd: string, start: (root: string) => void): string | null {
  try {
    const place = plainCloneAbove(cwd);
    if (!place || fs.lstatSync(place.indexDir, { throwIfNoEntry: false })) return null;
    const gitDir = path.join(place.root, '.git');
    if ((trackedCount(path.join(gitDir, 'index')) ?? 0) <= EARLY_FILES) return null;
    ensureGitExclude({ commonDir: gitDir, mainWorkTree: place.root });
    start(place.root);
    return place.root;
  } catch {
    // Unreadable, or .git/info not writable: the search goes its usual way.
    return null;
  }
}
