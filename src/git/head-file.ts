import fs from 'node:fs';
import path from 'node:path';

/**
 * HEAD as git wrote it in a work tree's git dir (`ref: refs/heads/main`, or a commit id when detached), read
 * without running git, so it can be looked at before every query; null when it can't be read.
 */
export function readHeadFile(gitDir: string): string | null {
  try {
    return fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8');
  } catch {
    return null;
  }
}

/** The ref a HEAD file names (`refs/heads/main`), or null when HEAD is detached (or was not read). */
export function headRef(head: string | null): string | null {
  return (head !== null && /^ref: (refs\/\S+)\s*$/.exec(head)?.[1]) || null;
}
