import { latin1Key, nulRecords } from './path-key.js';
import { gitBuffer } from './run.js';

/** A path whose working-tree content differs from HEAD: edited, staged, untracked (not ignored) or deleted. */
export interface WorkingChange {
  /** A key (`path-key.ts`). */
  path: string;
  deleted: boolean;
}

/** Uncommitted changes of the work tree, staged or not, including untracked files that are not ignored. */
export async function workingChanges(root: string): Promise<WorkingChange[]> {
  const { stdout } = await gitBuffer(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all'], { cwd: root });
  return parseStatus(stdout);
}

/**
 * An untracked file in a dependency folder no `.gitignore` names (a quick project's `npm install`): no change of the
 * user's, and thousands of them (3,000 small files: a first search of 44 s, 130 MB of index, answers drowned in
 * dependency code). Sources never walk such a folder either (`folder-files.ts`).
 */
const DEPENDENCY_FOLDER = /(^|\/)node_modules\//;

/** Parses `git status --porcelain=v1 -z --no-renames`: "XY path\0" records, the path as raw bytes. Pure. */
export function parseStatus(out: Buffer): WorkingChange[] {
  const changes: WorkingChange[] = [];
  for (const record of nulRecords(out)) {
    if (record.length < 4) continue;
    const [x, y] = [record[0], record[1]];
    if (x === '?' && DEPENDENCY_FOLDER.test(record.slice(3))) continue;
    // The work tree decides what the user sees: deleted there (or staged deletion with no file) means gone.
    changes.push({ path: latin1Key(record.slice(3)), deleted: y === 'D' || (x === 'D' && y === ' ') });
  }
  return changes;
}
