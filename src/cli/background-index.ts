import type * as ChildProcesses from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** This program's entry (dist/cli/main.js, bundled or not: the bundle lives in the same folder). */
const ENTRY = fileURLToPath(new URL('./main.js', import.meta.url));

/**
 * Starts `ocrag hook remote-first` detached in the repository, as a git hook does (service/hook-run.ts): it
 * takes the index lock or leaves a mark for the run holding it, logs to .ocrag/log and never fails the caller.
 * Its output goes nowhere: the search that started it has printed its answer by the time it ends. Node's
 * child_process loads only here: the quick entry of every search holds this code (quick-search.ts), and a search
 * a running server answers never starts a run (as git/run.ts).
 */
export function startBackgroundIndex(root: string): void {
  try {
    const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof ChildProcesses;
    const child = spawn(process.execPath, [ENTRY, 'hook', 'remote-first'], { cwd: root, detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The next search of the clone starts it again.
  }
}

/**
 * The starter for a search whose run `startedFor` a root already (the quick entry's, before it loaded anything): a
 * second run there would find the lock taken and leave a mark that makes the first index once more.
 */
export function startBackgroundIndexOnce(startedFor: string | null): (root: string) => void {
  return (root) => {
    if (root !== startedFor) startBackgroundIndex(root);
  };
}
