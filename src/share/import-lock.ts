import fs from 'node:fs';
import type { IndexContext } from '../index/index-context.js';
import { ensureGitExclude } from '../store/layout.js';
import { withIndexLock } from '../util/file-lock.js';

/**
 * Runs an import under the index lock, making `.ocrag/` if there is none. A refused import into a repository
 * without an index leaves none behind, not even the folder it made: `rmdir` takes only an empty folder, so whatever
 * another run put there meanwhile stays.
 */
export async function withImportLock<T>(ctx: IndexContext, onNotice: ((message: string) => void) | undefined, use: () => Promise<T>): Promise<T> {
  // mkdirSync says whether it made the folder: undefined when it was there already.
  const made = fs.mkdirSync(ctx.layout.dir, { recursive: true }) !== undefined;
  try {
    return await withIndexLock(ctx.layout.lock, onNotice, () => {
      ensureGitExclude(ctx.repo);
      return use();
    });
  } catch (err) {
    if (made) removeIfEmpty(ctx.layout.dir);
    throw err;
  }
}

function removeIfEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // not empty, or gone: nothing of ours to take back
  }
}
