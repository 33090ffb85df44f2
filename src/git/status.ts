import { latin1Key, nulRecords } from './path-key.js';
import { gitBuffer } from './run.js';

/** A path whose working-tree content differs from HEAD: edited, staged, untracked (not ignored) or deleted. */
export interface WorkingChange {
  /** A key (`path-key.ts`). */
  path: string;
  deleted: boolean;
}

/**
 * Uncommitted changes of the work tree, staged or not, including untracked files that are not ignored — as far as the
 * user lets git show them: `status.showUntrackedFiles=no` (a dotfiles repository whose work tree is a home folder)
 * means no untracked file is read. So git's own setting decides, and an untracked folder it shows collapsed
 * (`normal`, the default) is opened by one `ls-files`; `--untracked-files=all` would override the user's `no`.
 * `dir`: any folder of the work tree; paths are named from its top.
 */
export async function workingChanges(dir: string): Promise<WorkingChange[]> {
  const { stdout } = await gitBuffer(['status', '--porcelain=v1', '-z', '--no-renames', '--ignore-submodules=all'], { cwd: dir });
  const records = nulRecords(stdout);
  const folders = records.filter(isUntrackedFolder).map((record) => record.slice(3));
  if (!folders.length) return parseRecords(records);
  const opened = (await untrackedFilesUnder(dir, folders)).map((file) => `?? ${file}`);
  // git's order, as `--untracked-files=all` gave it: changes to tracked files, then untracked ones by their bytes (a
  // record's characters are its bytes, `nulRecords`, so the default sort is byte order).
  const untracked = [...records.filter((record) => record.startsWith('?? ') && !isUntrackedFolder(record)), ...opened];
  return parseRecords([...records.filter((record) => !record.startsWith('?? ')), ...untracked.sort()]);
}

/** `?? dir/`: git's `normal` mode shows an untracked folder, not its files (a nested repository shows so too). */
function isUntrackedFolder(record: string): boolean {
  return record.startsWith('?? ') && record.endsWith('/') && !DEPENDENCY_FOLDER.test(record.slice(3));
}

/** Pathspecs are strings on the command line, so a folder name that is not plain ASCII is found by listing them all. */
const PLAIN_FOLDER = /^[\x20-\x7e]+$/;
/** Past this many folders one listing of the whole tree is cheaper than a command line of pathspecs. */
const MOST_PATHSPECS = 100;

async function untrackedFilesUnder(dir: string, folders: string[]): Promise<string[]> {
  const byPathspec = folders.length <= MOST_PATHSPECS && folders.every((folder) => PLAIN_FOLDER.test(folder));
  // Named from the top of the work tree, as status names them, whatever folder of it this runs in (a one-shot
  // search starts status in the user's folder before it knows the top: context.ts).
  const specs = byPathspec ? folders.map((folder) => `:(top,literal)${folder}`) : [':(top)'];
  const args = ['ls-files', '-z', '--full-name', '--others', '--exclude-standard', '--', ...specs];
  const files = nulRecords((await gitBuffer(args, { cwd: dir })).stdout);
  return byPathspec ? files : files.filter(underOneOf(new Set(folders)));
}

/** Whether a path lies in one of the folders (each ending in `/`): its own folders looked up, not every one tried. */
function underOneOf(folders: Set<string>): (file: string) => boolean {
  return (file) => {
    for (let slash = file.indexOf('/'); slash >= 0; slash = file.indexOf('/', slash + 1)) if (folders.has(file.slice(0, slash + 1))) return true;
    return false;
  };
}

/**
 * An untracked file in a dependency folder no `.gitignore` names (a quick project's `npm install`): no change of the
 * user's, and thousands of them (3,000 small files: a first search of 44 s, 130 MB of index, answers drowned in
 * dependency code). Sources never walk such a folder either (`folder-files.ts`).
 */
const DEPENDENCY_FOLDER = /(^|\/)node_modules\//;

/** Parses `git status --porcelain=v1 -z --no-renames`: "XY path\0" records, the path as raw bytes. Pure. */
export function parseStatus(out: Buffer): WorkingChange[] {
  return parseRecords(nulRecords(out));
}

function parseRecords(records: string[]): WorkingChange[] {
  const changes: WorkingChange[] = [];
  for (const record of records) {
    if (record.length < 4) continue;
    const [x, y] = [record[0], record[1]];
    if (x === '?' && DEPENDENCY_FOLDER.test(record.slice(3))) continue;
    // The work tree decides what the user sees: deleted there (or staged deletion with no file) means gone.
    changes.push({ path: latin1Key(record.slice(3)), deleted: y === 'D' || (x === 'D' && y === ' ') });
  }
  return changes;
}
