import fs from 'node:fs';
import path from 'node:path';
import { isTracked } from '../git/tracked.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { ForeignIndexError } from '../util/errors.js';
import { readJson } from '../util/json-file.js';
import { excludeIndexFolder, type IndexLayout } from './layout.js';

/**
 * An index folder is ocrag's own or nothing. What ocrag reads from it goes into an agent's context and what it
 * says to read (sources, sourceRoots, a model folder) widens what ocrag reads, so a folder the repository or the
 * folder brought along (committed, unpacked, synced), a link to elsewhere or another user's is refused whole, in
 * one line with the fix: never read, written into or deleted.
 *
 * - It is a real folder, not a symbolic link, and belongs to this user; so is every entry in it (no link inside
 *   leads a write elsewhere, no FIFO makes a write wait forever).
 * - In a work tree, git tracks nothing in it (a committed `.ocrag/` is the repository's text, not an index).
 * - In a plain folder, with no git to say where it came from, it is the very folder ocrag made: `own.json` names
 *   its inode, which a copy, an archive or a sync cannot carry over.
 */
export async function indexFolderProblem(layout: IndexLayout): Promise<FolderProblem | null> {
  let folder: fs.Stats;
  try {
    folder = fs.lstatSync(layout.dir);
  } catch {
    return null;
  }
  const problem = ownProblem(layout.dir, folder, 'folder') ?? entriesProblem(layout.dir) ?? madeHereProblem(layout);
  // A link or file the repository committed as `.ocrag` is fixed in git, not with rm: say that first.
  if (layout.trackedIn && (problem ? await isTracked(layout.trackedIn.workTree, indexName(layout)) : await tracked(layout, layout.trackedIn))) {
    const { workTree } = layout.trackedIn;
    return { why: 'is tracked by git (it came with the repository), so ocrag will not use it', fix: `remove it (git -C ${shellWord(workTree)} rm -r -q ${shellWord(indexName(layout))}, and commit that) and run ocrag again` };
  }
  return problem;
}

function entriesProblem(dir: string): FolderProblem | null {
  for (const entry of fs.readdirSync(dir)) {
    const inside = path.join(dir, entry);
    // Gone since the listing: another run's lock being taken (`index.lock.<pid>.….tmp` lives for one link).
    const stat = fs.lstatSync(inside, { throwIfNoEntry: false });
    if (!stat) continue;
    const problem = ownProblem(inside, stat, 'entry');
    if (problem) return { why: `holds ${entry}, which ${problem.why}`, fix: problem.fix };
  }
  return null;
}

function madeHereProblem(layout: IndexLayout): FolderProblem | null {
  if (!layout.plain || readMark(layout).inode === inodeOf(layout.dir)) return null;
  return { why: 'was not made by ocrag for this folder on this machine (copied, unpacked or synced with it), so ocrag will not use it', fix: `delete it (rm -rf ${shellWord(layout.dir)}) and run ocrag index` };
}

/** Why a folder is not ocrag's own, and what the user does about it. */
export interface FolderProblem {
  why: string;
  fix: string;
}

/** Throws ForeignIndexError when the index folder is not ocrag's own (see indexFolderProblem). */
export async function assertOwnIndexFolder(layout: IndexLayout): Promise<void> {
  const problem = await indexFolderProblem(layout);
  if (problem) throw new ForeignIndexError(layout.dir, `${problem.why}: ${problem.fix}`);
}

/**
 * Runs a writer of the index folder: checked first (a long-lived server outlives a pull that brings a committed
 * `.ocrag/`), made when missing, and once the write succeeded, git's answer recorded for the commands after it.
 * Only a write that went through records anything: reading, or a write refused on its way, leaves the folder as
 * it was.
 */
export async function writingInto<T>(layout: IndexLayout, write: () => Promise<T>): Promise<T> {
  await assertOwnIndexFolder(layout);
  makeIndexFolder(layout);
  const result = await write();
  await recordUntracked(layout).catch(() => undefined);
  return result;
}

/**
 * Makes the index folder when there is none, and records that it was made here. Call it only once the folder
 * passed assertOwnIndexFolder: a folder from before the record existed (a work tree's, where git vouches for
 * it) gets its record then.
 */
export function makeIndexFolder(layout: IndexLayout): void {
  // Excluded before it exists: a `git status` between the two would list it (a hook's run made it first).
  if (layout.trackedIn && !fs.existsSync(layout.dir)) excludeIndexFolder(layout.trackedIn.gitExclude);
  fs.mkdirSync(layout.dir, { recursive: true });
  const mark = readMark(layout);
  const inode = inodeOf(layout.dir);
  if (mark.inode !== inode) writeMark(layout, { ...mark, inode });
}

/** What `own.json` records; neither can be known before the folder and the git index exist on this disk. */
interface OwnMark {
  /** The index folder's inode when ocrag made it. */
  inode?: string;
  /** The git index file (inode, size, times) when git last said it tracks nothing in the folder. */
  untrackedAt?: string;
}

/**
 * Whether git tracks anything in the folder. Asking git costs a process (3 ms idle, 30 ms on a loaded machine:
 * up to 3 % of a one-shot search), so the answer a write run got is kept against the git index file it came from:
 * git rewrites that file (a new inode) whenever what it tracks changes (add, rm, checkout, pull), and a
 * repository cannot carry a record of a file made on this disk after it was cloned. Until the next write run
 * records it again, a command after such a change asks git.
 */
async function tracked(layout: IndexLayout, { workTree, gitIndex }: NonNullable<IndexLayout['trackedIn']>): Promise<boolean> {
  const identity = fileIdentity(gitIndex);
  if (identity && readMark(layout).untrackedAt === identity) return false;
  return isTracked(workTree, indexName(layout));
}

/** Keeps git's answer (untracked) with an index, after a write: a folder that holds none is left as it was. */
async function recordUntracked(layout: IndexLayout): Promise<void> {
  if (!layout.trackedIn || !fs.existsSync(layout.meta)) return;
  const identity = fileIdentity(layout.trackedIn.gitIndex);
  const mark = readMark(layout);
  if (!identity || mark.untrackedAt === identity || (await isTracked(layout.trackedIn.workTree, indexName(layout)))) return;
  writeMark(layout, { ...mark, untrackedAt: identity });
}

/** The index folder's path in its work tree (`.ocrag`). */
function indexName(layout: IndexLayout): string {
  return path.relative(layout.trackedIn!.workTree, layout.dir);
}

function readMark(layout: IndexLayout): OwnMark {
  return readJson<OwnMark>(layout.ownMark) ?? {};
}

function writeMark(layout: IndexLayout, mark: OwnMark): void {
  try {
    writeFileAtomic(layout.ownMark, JSON.stringify(mark) + '\n', { durable: false });
  } catch {
    // A record only: without it the next command asks again (or, in a plain folder, has to be told).
  }
}

function fileIdentity(file: string): string | null {
  try {
    const s = fs.statSync(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return null;
  }
}

/** A folder ocrag keeps (or an entry in it) is a real folder (or file) of this user's. */
function ownProblem(file: string, stat: fs.Stats, what: 'folder' | 'entry'): FolderProblem | null {
  if (stat.isSymbolicLink()) return { why: `is a symbolic link (to ${linkTarget(file)}), and ocrag writes only into a folder of its own, never through a link`, fix: `remove the link (rm ${shellWord(file)}) and run ocrag again` };
  const uid = process.geteuid?.();
  if (uid !== undefined && stat.uid !== uid) return { why: `belongs to another user (uid ${stat.uid}), so ocrag will not use it`, fix: 'run ocrag as that user, or remove it' };
  if (what === 'folder' ? !stat.isDirectory() : !stat.isDirectory() && !stat.isFile()) {
    return { why: `is not a ${what === 'folder' ? 'folder' : 'file or folder'}, and ocrag keeps its index in a folder of its own`, fix: `move it away (mv ${shellWord(file)} …) and run ocrag again` };
  }
  return null;
}

function inodeOf(dir: string): string {
  return String(fs.statSync(dir, { bigint: true }).ino);
}

function linkTarget(file: string): string {
  try {
    return fs.readlinkSync(file);
  } catch {
    return '?';
  }
}

/** A path as the user would type it in a shell, quoted only when it has to be. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
