import fs from 'node:fs';

/**
 * Temporary files that must not outlive the process, however it ends: removed by the caller, at exit, or on
 * SIGINT, SIGTERM and SIGHUP (after which the signal is raised again, so the process ends as the signal says:
 * exit 130 for Ctrl-C). A SIGKILL leaves the file, named with the pid that made it.
 */
const pending = new Set<string>();
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let watching = false;

function removeAll(): void {
  for (const file of pending) fs.rmSync(file, { force: true });
  pending.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  removeAll();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  process.kill(process.pid, signal);
}

/** Registers `file` (not created here); `remove()` deletes it and forgets it. */
export function tempFile(file: string): { file: string; remove(): void } {
  if (!watching) {
    watching = true;
    process.on('exit', removeAll);
    for (const s of SIGNALS) process.on(s, onSignal);
  }
  pending.add(file);
  return {
    file,
    remove() {
      fs.rmSync(file, { force: true });
      pending.delete(file);
    },
  };
}

/** Removes a file if it is one; never throws (a folder by that name, a read-only disk: left as it is). */
export function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Left: whoever reads it next checks it as before.
  }
}
