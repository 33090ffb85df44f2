import fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { processState } from './process-state.js';

/**
 * Who holds a lock. The file's mtime is its heartbeat: the holder touches it every tenth of `staleMs`, so a long
 * run (a monorepo's first index, a model's distillation) is never mistaken for a dead one.
 */
interface LockOwner {
  pid: number;
  /** Where `pid` lives; a lock of another host can only go stale by its heartbeat. Absent in older builds' index locks. */
  host?: string;
  startedAt: number;
  /** Tells this holder's file from a later holder's in the same process. */
  nonce: string;
  /** This process among all that ever had its pid (pids repeat, in containers above all). Absent in older builds. */
  process?: string;
}

const THIS_PROCESS = Math.random().toString(36).slice(2);

export interface FileLock {
  release(): void;
}

/** How long a lock nobody touches stays held, unless its owner is known dead sooner. */
const DEFAULT_STALE_MS = 10 * 60_000;
const POLL_MS = 100;

/**
 * Older builds made the model lock a folder holding this file (`mkdir`, then the owner written in): such a folder
 * is read as a lock like any other, its mtime the heartbeat, so builds of both kinds exclude each other.
 */
const FOLDER_LOCK_OWNER = 'owner.json';

/**
 * Takes a lock without waiting: returns null when a live process holds it. A lock is stale, and taken over, when
 * nobody touched it for `staleMs`, or at once when its owner was on this host and its pid is gone.
 */
export function tryLock(file: string, staleMs = DEFAULT_STALE_MS): FileLock | null {
  const owner: LockOwner = { pid: process.pid, host: hostname(), startedAt: Date.now(), nonce: Math.random().toString(36).slice(2), process: THIS_PROCESS };
  for (let attempt = 0; attempt < 2; attempt++) {
    if (create(file, JSON.stringify(owner))) return holding(file, owner, staleMs);
    const held = readLock(file);
    if (held === null) continue;
    if (!isStale(held, staleMs)) return null;
    // Stale: remove it unless someone replaced it meanwhile, and try once more (a racing taker may win; then we are busy).
    if (readLock(file)?.text === held.text) fs.rmSync(file, { recursive: true, force: true });
  }
  return null;
}

/** The pid of the live process of this host holding the lock, else null (free, stale, or held on another host). */
export function lockHolder(file: string, staleMs = DEFAULT_STALE_MS): number | null {
  const held = readLock(file);
  if (!held || isStale(held, staleMs)) return null;
  const owner = parseOwner(held.text);
  return owner && (owner.host === undefined || owner.host === hostname()) ? owner.pid : null;
}

export interface WaitOptions {
  timeoutMs: number;
  staleMs?: number;
  /** Called once, when the lock is found held. */
  onWait?: () => void;
  /** Checked while waiting: once true, the wait ends without the lock (its holder did the work the caller wanted). */
  satisfied?: () => boolean;
}

/**
 * Waits for the lock, polling; null only when `satisfied` said so. For commands a person ran, which should queue
 * behind a hook's run, and for a model that another process may be building.
 */
export async function acquireLock(file: string, options: WaitOptions): Promise<FileLock | null> {
  const deadline = Date.now() + options.timeoutMs;
  let told = false;
  for (;;) {
    const lock = tryLock(file, options.staleMs);
    if (lock) return lock;
    if (options.satisfied?.()) return null;
    if (Date.now() > deadline) throw new Error(`another ocrag run holds ${file}; try again later (or delete the file if no ocrag process is running)`);
    if (!told) {
      options.onWait?.();
      told = true;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Waits for the lock (as `acquireLock`, with nothing that could end the wait early). */
export async function waitLock(file: string, timeoutMs: number, onWait?: () => void): Promise<FileLock> {
  return (await acquireLock(file, { timeoutMs, onWait }))!;
}

/** How long a command waits for another run (a git hook's, say) to let go of the index lock. */
const INDEX_LOCK_WAIT_MS = 10 * 60_000;

/**
 * Runs `use` holding the index lock, waiting for another ocrag run to finish first (telling `onNotice` once);
 * `use` learns whether it waited, as the other run may have moved HEAD or done its work.
 */
export async function withIndexLock<T>(file: string, onNotice: ((message: string) => void) | undefined, use: (waited: boolean) => Promise<T>): Promise<T> {
  let waited = false;
  const lock = await waitLock(file, INDEX_LOCK_WAIT_MS, () => {
    waited = true;
    onNotice?.('ocrag: waiting for another ocrag run (a git hook?) to finish');
  });
  try {
    return await use(waited);
  } finally {
    lock.release();
  }
}

/** Creates the lock file with its content in one step (a reader never sees it empty); false if it exists. */
function create(file: string, content: string): boolean {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    // Inside the try: a disk that is full takes the file but not its content, and the empty file goes too.
    fs.writeFileSync(tmp, content);
    fs.linkSync(tmp, file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
    // No hard links on this file system: exclusive create, then write (a reader may briefly see it empty).
    try {
      fs.writeFileSync(file, content, { flag: 'wx' });
      return true;
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e2;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function holding(file: string, owner: LockOwner, staleMs: number): FileLock {
  const mine = JSON.stringify(owner);
  const heartbeat = setInterval(() => {
    try {
      if (readLock(file)?.text === mine) fs.utimesSync(file, new Date(), new Date());
    } catch {
      // A missing lock is noticed by whoever takes it next.
    }
  }, staleMs / 10);
  heartbeat.unref();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      try {
        if (readLock(file)?.text === mine) fs.rmSync(file, { force: true });
      } catch {
        // Nothing to release.
      }
    },
  };
}

/** The lock's owner text and age, or null when there is none. */
function readLock(file: string): { text: string; mtimeMs: number } | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  const folder = stat.isDirectory();
  try {
    return { text: fs.readFileSync(folder ? path.join(file, FOLDER_LOCK_OWNER) : file, 'utf8'), mtimeMs: stat.mtimeMs };
  } catch {
    // A folder lock whose owner is not written yet reads as empty, like a file being written; a file is gone.
    return folder ? { text: '', mtimeMs: stat.mtimeMs } : null;
  }
}

/**
 * Unreadable owners (a file being written) count as alive: only the heartbeat can tell them stale. A lock this very
 * process holds is never stale: its heartbeat is a timer of this event loop, late whenever the loop is busy (two
 * first uses of the model in one process under a load of 20 took the lock from each other and built it twice).
 */
function isStale(held: { text: string; mtimeMs: number }, staleMs: number): boolean {
  const owner = parseOwner(held.text);
  if (owner?.process === THIS_PROCESS) return false;
  if (Date.now() - held.mtimeMs >= staleMs) return true;
  return owner !== null && (owner.host === undefined || owner.host === hostname()) && processState(owner.pid) === 'gone';
}

function parseOwner(text: string): LockOwner | null {
  try {
    const owner = JSON.parse(text) as LockOwner;
    return typeof owner.pid === 'number' ? owner : null;
  } catch {
    return null;
  }
}
