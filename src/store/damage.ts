import { UsageError } from '../git/repo.js';
import { GitError } from '../git/run.js';

/**
 * LanceDB's words for files of a table that are missing, short or unreadable. A bad query (a bug) reads
 * "Invalid user input" instead and is not matched, so it is never blamed on the user's disk.
 */
const DAMAGE = /Not found|was not found|LanceError\(IO\)|failed to fill whole buffer|sufficient data|corrupt|unexpected eof|No such file|is missing/i;

/** The store under .ocrag/lance cannot be read; the fix is a rebuild (exit 4, like every "index needs attention"). */
export class StoreDamageError extends UsageError {
  constructor(readonly dir: string, readonly detail: string) {
    super(`the index is damaged (${detail}): run "ocrag index --rebuild" to rebuild it`, 4);
  }
}

export function isStoreDamage(e: unknown): boolean {
  if (e instanceof StoreDamageError) return true;
  return e instanceof Error && !(e instanceof UsageError) && !(e instanceof GitError) && DAMAGE.test(e.message);
}

/** The error to show for a failure of store work: damage becomes one line with its fix; anything else passes unchanged. */
export function asStoreDamage(e: unknown, dir: string): unknown {
  if (e instanceof StoreDamageError || !isStoreDamage(e)) return e;
  return new StoreDamageError(dir, briefly((e as Error).message));
}

/** LanceDB messages carry Rust source locations and "Caused by" chains: keep the first clause. */
function briefly(message: string): string {
  const first = message.split(/\s+Caused by:/)[0].replace(/,\s*\/\S+\.rs:\d+:\d+/g, '').trim();
  return first.length > 200 ? `${first.slice(0, 197)}...` : first;
}
