import fs from 'node:fs';

/** Who holds a lock; a lock whose process is gone, or that nobody has touched for `staleMs`, is stale. */
interface LockOwner {
  pid: number;
  startedAt: number;
  /** Tells this holder's file from a later holder's in the same process. */
  nonce: string;
}

export interface IndexLock {
  release(): void;
}

/** A holder touches its lock this often, so a long run (a monorepo's first index) is never mistaken for a dead one. */
const HEARTBEAT_MS = 60_000;

/**
 * Takes a lock without waiting: returns null when another live process holds it. A lock left by a killed run
 * (its pid is gone, or its file was not touched for `staleMs`) is taken over.
 */
export function tryLock(file: string, staleMs = 10 * 60_000): IndexLock | null {
  const owner: LockOwner = { pid: process.pid, startedAt: Date.now(), nonce: Math.random().toString(36).slice(2) };
  for (let attempt = 0; attempt < 2; attempt++) {
    if (create(file, JSON.stringify(owner))) return holding(file, owner);
    const held = readLock(file);
    if (held === null) continue;
    const current = parseOwner(held.text);
    const fresh = Date.now() - held.mtimeMs < staleMs;
    if (fresh && (current ? isAlive(current.pid) : true)) return null;
    // Stale: remove it unless someone replaced it meanwhile, and try once more (a racing taker may win; then we are busy).
    if (readLock(file)?.text === held.text) fs.rmSync(file, { force: true });
  }
  return null;
}

/** Creates the lock file with its content in one step (a reader never sees it empty); false if it exists. */
function create(file: string, content: string): boolean {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, content);
  try {
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

function holding(file: string, owner: LockOwner): IndexLock {
  const mine = JSON.stringify(owner);
  const heartbeat = setInterval(() => {
    try {
      if (readLock(file)?.text === mine) fs.utimesSync(file, new Date(), new Date());
    } catch {
      // A missing lock is noticed by whoever takes it next.
    }
  }, HEARTBEAT_MS);
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

/** Waits for the lock, polling; for commands a person ran, which should queue behind a hook's run. */
export async function waitLock(file: string, timeoutMs: number, onWait?: () => void): Promise<IndexLock> {
  const deadline = Date.now() + timeoutMs;
  let told = false;
  for (;;) {
    const lock = tryLock(file);
    if (lock) return lock;
    if (Date.now() > deadline) throw new Error(`another ocrag run holds ${file}; try again later (or delete the file if no ocrag process is running)`);
    if (!told) {
      onWait?.();
      told = true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
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

/** The lock file's text and age, or null when there is none. */
function readLock(file: string): { text: string; mtimeMs: number } | null {
  try {
    const { mtimeMs } = fs.statSync(file);
    return { text: fs.readFileSync(file, 'utf8'), mtimeMs };
  } catch {
    return null;
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const owner = JSON.parse(text) as LockOwner;
    return typeof owner.pid === 'number' ? owner : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
