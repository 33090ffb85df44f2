import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** This program's entry (dist/cli/main.js, bundled or not: the bundle lives in the same folder). */
const ENTRY = fileURLToPath(new URL('./main.js', import.meta.url));

/**
 * Starts `ocrag hook remote-first` detached in the repository, as a git hook does (service/hook-run.ts): it
 * takes the index lock or leaves a mark for the run holding it, logs to .ocrag/log and never fails the caller.
 * Its output goes nowhere: the search that started it has printed its answer by the time it ends. `earlyChunks`:
 * the digest of what that search's early answer chunked and embedded, for the run to take (index/early/hand-off.ts).
 */
export function startBackgroundIndex(root: string, earlyChunks?: string): void {
  try {
    // ocrag itself: this process's environment, NODE_EXTRA_CA_CERTS still deferred (config/environment.ts).
    const args = [ENTRY, 'hook', 'remote-first', ...(earlyChunks ? ['--early-chunks', earlyChunks] : [])];
    const child = spawn(process.execPath, args, { cwd: root, detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The next search of the clone starts it again.
  }
}
