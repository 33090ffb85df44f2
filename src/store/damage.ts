import path from 'node:path';
import { GitError } from '../git/run.js';
import { StoreDamageError, OcragError } from '../util/errors.js';
import { asStorageError, storageProblem } from '../util/storage-problem.js';

/**
 * LanceDB's words for files of a table that are missing, short or unreadable. A bad query (a bug) reads
 * "Invalid user input" instead and is not matched, so it is never blamed on the user's disk, unless the error
 * comes from the file decoder's own source (`lance-encoding`, `lance-file`: "Unsupported bits_per_offset=202" for
 * a garbled references file). A garbled data file can also make its decoder panic (4 KiB overwritten at 10% of a
 * contents file: "range end index 368699183 out of range"), which reaches JavaScript as "Panic in async function"
 * or "task 120 panicked with message …".
 */
const DAMAGE = /Not found|was not found|LanceError\(IO\)|failed to fill whole buffer|sufficient data|corrupt|unexpected eof|No such file|is missing|Panic in async function|panicked|lance-encoding-|lance-file-/i;

export function isStoreDamage(e: unknown): boolean {
  if (e instanceof StoreDamageError) return true;
  // A full or read-only disk fails a write (LanceDB says "LanceError(IO)" for it too): the store is as it was.
  return e instanceof Error && !(e instanceof OcragError) && !(e instanceof GitError) && DAMAGE.test(e.message) && !storageProblem(e);
}

/**
 * The error to show for a failure of store work: a write the disk refused becomes a StorageError (exit 7) naming
 * the index folder, damage one line with its fix; anything else passes unchanged.
 */
export function asStoreDamage(e: unknown, dir: string, indexDir = path.dirname(dir)): unknown {
  const storage = asStorageError(e, indexDir);
  if (storage) return storage;
  if (e instanceof StoreDamageError || !isStoreDamage(e)) return e;
  return new StoreDamageError(dir, briefly((e as Error).message));
}

/** LanceDB messages carry Rust source locations and "Caused by" chains: keep the first clause. */
function briefly(message: string): string {
  const first = message.split(/\s+Caused by:/)[0].replace(/,\s*\/\S+\.rs:\d+:\d+/g, '').trim();
  return first.length > 200 ? `${first.slice(0, 197)}...` : first;
}
