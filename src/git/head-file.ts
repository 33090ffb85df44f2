import fs from 'node:fs';
import path from 'node:path';
import { fileStamp } from '../util/file-stamp.js';
import type { RepoInfo } from './repo.js';

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

/** HEAD and the ref it points at, as files (read before every query of a server); null when refs are in a reftable. */
export function headFiles({ gitDir, commonDir }: RepoInfo): string[] | null {
  if (fs.existsSync(path.join(commonDir, 'reftable'))) return null;
  const head = readHeadFile(gitDir);
  if (head === null) return null;
  const parts = [head.trim()];
  const ref = headRef(head);
  if (ref) {
    // Loose refs win over packed ones; per-worktree refs live in the worktree's git dir.
    const loose = readText(path.join(commonDir, ref)) ?? readText(path.join(gitDir, ref));
    parts.push(loose !== null ? loose.trim() : `packed ${fileStamp(path.join(commonDir, 'packed-refs'))}`);
  }
  return parts;
}

/** The folders git writes when HEAD moves, each with whether any entry there counts (a ref folder) or only HEAD's files do. */
export function headFolders({ gitDir, commonDir }: RepoInfo): Map<string, boolean> {
  const out = new Map([
    [gitDir, false],
    [commonDir, false],
    [path.join(commonDir, 'reftable'), true],
  ]);
  const ref = headRef(readHeadFile(gitDir));
  if (ref) out.set(path.dirname(path.join(commonDir, ref)), true);
  return out;
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
