/**
 * Whether a process runs with this pid: `ours` (we may signal it), `other` (it runs, as another user), or `gone`.
 * A lock's holder that runs as anyone still holds it; a server to talk to must be ours.
 */
export function processState(pid: number): 'ours' | 'other' | 'gone' {
  try {
    process.kill(pid, 0);
    return 'ours';
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? 'other' : 'gone';
  }
}
