import fs from 'node:fs';
import path from 'node:path';
import { joinKey, keyFsPath, latin1Key, nulRecords, shownPath } from './path-key.js';
import { realPathOr } from '../util/linked-path.js';
import { gitBuffer } from './run.js';

/**
 * A repository inside a plain folder or a source is what they hold, hostile like the rest: its own config must not
 * run anything. Listing reads its index, which runs the program `core.fsmonitor` names (a config a tarball can
 * carry): switched off for every git this module starts. It runs no filter, hook or textconv driver.
 */
const NO_PROGRAMS = ['-c', 'core.fsmonitor=false'];

/** Folders never worth walking in a source: version control and dependency trees. */
const NEVER = ['.git', '.ocrag', 'node_modules', '.hg', '.svn'];

/**
 * The files of a folder as keys (`path-key.ts`), `/`-separated and relative to it, as git would list them: inside a
 * git work tree what git shows (tracked and untracked, ignore files honoured); elsewhere the files git would show
 * were the folder a repository of its own (its `.gitignore` files and the user's global excludes honoured, through
 * an empty git folder at `scratchGit`), each repository checked out inside it as git shows that one. Never what
 * lies under NEVER. Names are read as bytes, so one that is not UTF-8 is found and kept apart from its look-alikes.
 * Symlinks are listed, never followed.
 */
export async function folderFiles(dir: string, scratchGit: string): Promise<string[]> {
  const inside = await gitBuffer([...NO_PROGRAMS, 'rev-parse', '--is-inside-work-tree'], { cwd: dir, okCodes: [128] }).catch(() => null);
  if (inside?.code === 0 && inside.stdout.toString().trim() === 'true') {
    const stdout = await shownFiles(dir);
    // A folder git shows no file of (ignored, or every file in it ignored by a pattern, `*.log`) lists nothing
    // there: chosen as a source, it is read as a folder of its own (below).
    if (stdout.length) return nulRecords(stdout).map(latin1Key).filter((key) => !underNever(key)).sort();
  }
  await emptyGitFolder(scratchGit);
  const { stdout } = await gitBuffer([...NO_PROGRAMS, `--git-dir=${scratchGit}`, `--work-tree=${dir}`, 'ls-files', '-z', '--others', '--exclude-standard', ...neverWalked()], { cwd: dir });
  const out: string[] = [];
  for (const record of nulRecords(stdout)) {
    // A repository inside the folder is one entry, `name/`: its own files are what its git lists.
    const repository = record.endsWith('/');
    const key = latin1Key(repository ? record.slice(0, -1) : record);
    if (underNever(key)) continue;
    if (!repository) {
      out.push(key);
      continue;
    }
    const where = keyFsPath(dir, key);
    // git cannot be started in a folder whose name is not UTF-8: such a repository is left out.
    if (typeof where !== 'string') continue;
    for (const inner of await folderFiles(where, scratchGit)) out.push(joinKey(key, inner));
  }
  return out.sort();
}

/**
 * Whether git shows `target` (a file or folder) as part of the work tree at `root`: tracked, or untracked and not
 * ignored, and not inside a repository of its own; a folder, when git shows a file of it. Such a path's files are
 * indexed with the tree already.
 */
export async function shownInWorkTree(root: string, target: string, isFolder: boolean): Promise<boolean> {
  const dir = isFolder ? target : path.dirname(target);
  const top = await gitBuffer([...NO_PROGRAMS, 'rev-parse', '--show-toplevel'], { cwd: dir, okCodes: [128] }).catch(() => null);
  if (top?.code !== 0 || realPathOr(top.stdout.toString().trim()) !== realPathOr(root)) return false;
  if (await ignoredByGit(dir, isFolder ? '.' : path.basename(target))) return false;
  return !isFolder || (await shownFiles(dir)).length > 0;
}

/** The files git shows under a folder of its work tree (tracked, or untracked and not ignored), NUL-separated, named from that folder (no --full-name). */
async function shownFiles(dir: string): Promise<Buffer> {
  return (await gitBuffer([...NO_PROGRAMS, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', ...neverWalked(), '.'], { cwd: dir })).stdout;
}

async function ignoredByGit(dir: string, name = '.'): Promise<boolean> {
  const checked = await gitBuffer([...NO_PROGRAMS, 'check-ignore', '-q', '--', name], { cwd: dir, okCodes: [1, 128] }).catch(() => null);
  return checked?.code === 0;
}

function neverWalked(): string[] {
  return NEVER.map((name) => `--exclude=${name}`);
}

function underNever(key: string): boolean {
  return shownPath(key).split('/').some((part) => NEVER.includes(part));
}

/**
 * A git folder holding nothing, made once: git lists a folder's files by its ignore rules only with a repository to
 * read them for. No template (so no sample hooks), nothing ever committed, and its path is ocrag's own.
 */
async function emptyGitFolder(scratchGit: string): Promise<void> {
  if (fs.existsSync(path.join(scratchGit, 'HEAD'))) return;
  fs.mkdirSync(path.dirname(scratchGit), { recursive: true });
  await gitBuffer(['init', '-q', '--bare', '--template=', scratchGit], { cwd: path.dirname(scratchGit) });
}
