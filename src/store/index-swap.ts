import fs from 'node:fs';
import path from 'node:path';
import { syncFolder, writeFileAtomic } from '../util/atomic-write.js';
import { crashPoint } from '../util/crash-point.js';
import { tryLock, type FileLock } from '../util/file-lock.js';
import { stagingFolders, swappedEntries, type IndexLayout } from './layout.js';

/** What `rebuild-swap.json` records: the staging folder holding the new index, and which entries it has. */
interface SwapJournal {
  build: string;
  entries: string[];
}

/** A build folder is one of ours only by this name (layout.ts's staging prefix and a pid): never a path. */
const BUILD_NAME = /^staging-\d+$/;
/** Where the old index's entries wait, inside the build folder, until the swap is done and the folder removed. */
const REPLACED = '.replaced';

/**
 * Moves a complete index, built in `build` (a staging folder of `layout`: see stagedLayout), into place. The
 * journal written first is the point of no return: a kill before it leaves the old index untouched and the build a
 * leftover; a kill after it, a swap the next open completes (finishSwap). Each old entry is moved aside before the
 * new one takes its name, so a reader misses an entry for one rename at most. The caller holds the index lock.
 */
export function swapIndex(layout: IndexLayout, build: IndexLayout): void {
  // Never swap in less than a store: a build folder something deleted under the run would empty the index.
  if (!fs.existsSync(build.meta) || !fs.existsSync(build.tables)) throw new Error(`the rebuilt index in ${build.dir} is gone (removed while the rebuild ran?): the index is as it was`);
  const entries = swappedEntries(build)
    .filter((p) => fs.existsSync(p))
    .map((p) => path.basename(p));
  const journal: SwapJournal = { build: path.basename(build.dir), entries };
  writeFileAtomic(layout.rebuildSwap, JSON.stringify(journal) + '\n');
  crashPoint('rebuild.journal');
  finishSwap(layout);
}

/**
 * Completes the swap a journal records, from wherever a kill stopped it; nothing when there is none. A journal
 * that is not one of ours (unreadable, naming anything but a staging folder that is there) is removed and the
 * index left as it is. The caller holds the index lock.
 */
export function finishSwap(layout: IndexLayout): void {
  const journal = readJournal(layout);
  if (!journal) return;
  const build = path.join(layout.dir, journal.build);
  const aside = path.join(build, REPLACED);
  fs.mkdirSync(aside, { recursive: true });
  for (const live of swappedEntries(layout)) {
    const name = path.basename(live);
    const fresh = path.join(build, name);
    const isNew = journal.entries.includes(name);
    // Moved in already, by the run the kill stopped.
    if (isNew && !present(fresh)) continue;
    crashPoint('rebuild.swap');
    if (present(live)) {
      fs.rmSync(path.join(aside, name), { recursive: true, force: true });
      fs.renameSync(live, path.join(aside, name));
    }
    if (isNew) fs.renameSync(fresh, live);
  }
  syncFolder(layout.dir);
  crashPoint('rebuild.swapped');
  fs.rmSync(layout.rebuildSwap, { force: true });
  fs.rmSync(build, { recursive: true, force: true });
}

/** Removes every staging folder killed runs left, once a swap one of them was in is complete; under the index lock. */
export function removeStagingLeftovers(layout: IndexLayout): void {
  finishSwap(layout);
  // rmSync removes a symlink planted under a staging name, never what it points to.
  for (const dir of stagingFolders(layout)) fs.rmSync(dir, { recursive: true, force: true });
}

/** How long a reader waits for a live run to end its swap (renames: milliseconds) before reading anyway. */
const SWAP_WAIT_MS = 10_000;

/**
 * Before a command reads the index: when a killed run left a swap half done or a build folder behind, tidies up
 * under the index lock, if no live run holds it (that run tidies up itself; while it swaps, waits for the swap).
 * A folder it may not write is left as it is.
 */
export async function settleIndexFolder(layout: IndexLayout): Promise<void> {
  const swapping = () => fs.existsSync(layout.rebuildSwap);
  if (!swapping() && stagingFolders(layout).length === 0) return;
  let lock: FileLock | null;
  try {
    lock = tryLock(layout.lock);
  } catch {
    return;
  }
  if (!lock) {
    for (const deadline = Date.now() + SWAP_WAIT_MS; swapping() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
    return;
  }
  try {
    removeStagingLeftovers(layout);
  } catch {
    // Read-only or full: readers see the index as it is, and the next index run says what is wrong.
  } finally {
    lock.release();
  }
}

function readJournal(layout: IndexLayout): SwapJournal | null {
  let text: string;
  try {
    text = fs.readFileSync(layout.rebuildSwap, 'utf8');
  } catch {
    return null;
  }
  const names = new Set(swappedEntries(layout).map((p) => path.basename(p)));
  let journal: SwapJournal | null = null;
  try {
    const parsed = JSON.parse(text) as SwapJournal;
    const valid = typeof parsed.build === 'string' && BUILD_NAME.test(parsed.build) && Array.isArray(parsed.entries) && parsed.entries.every((e) => typeof e === 'string' && names.has(e));
    if (valid && isRealFolder(path.join(layout.dir, parsed.build))) journal = parsed;
  } catch {
    // Torn or foreign: not a swap of ours.
  }
  if (!journal) fs.rmSync(layout.rebuildSwap, { force: true });
  return journal;
}

/** A folder itself, not a symlink to one: a swap never moves anything from outside the index folder. */
function isRealFolder(dir: string): boolean {
  try {
    return fs.lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** There, even as a dangling symlink. */
function present(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
