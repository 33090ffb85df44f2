import fs from 'node:fs';

/** Who holds the index lock; a lock whose process is gone is stale and may be taken over. */
interface LockOwner {
  pid: number;
  startedAt: number;
}

export interface IndexLock {
  release(): void;
}

/**
 * Takes the index lock without waiting: returns null when another live process holds it. A lock left by a
 * killed run (its pid is gone, or it is older than `staleMs`) is taken over.
 */
export function tryLock(file: string, staleMs = 30 * 60_000): IndexLock | null {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: Date.now() } satisfies LockOwner));
      fs.closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            const owner = readOwner(file);
            if (owner?.pid === process.pid) fs.rmSync(file, { force: true });
          } catch {
            // Nothing to release.
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = readOwner(file);
      if (owner && isAlive(owner.pid) && Date.now() - owner.startedAt < staleMs) return null;
      // Stale: remove and try once more (another process may win that race; then we report busy).
      fs.rmSync(file, { force: true });
    }
  }
  return null;
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

function readOwner(file: string): LockOwner | null {
  try {
    const owner = JSON.parse(fs.readFileSync(file, 'utf8')) as LockOwner;
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
