import path from 'node:path';
import { StorageError } from './errors.js';

/**
 * Node's codes and the words LanceDB's native layer uses (Rust's io::Error: "No space left on device (os error
 * 28)", "Read-only file system (os error 30)", "Permission denied (os error 13)"; 122 is a full quota).
 */
const FULL = /\bENOSPC\b|\bEDQUOT\b|No space left on device|Disk quota exceeded|os error (28|122)\)/i;
const READ_ONLY = /\bEROFS\b|Read-only file system|os error 30\)/i;
const DENIED = /\bEACCES\b|\bEPERM\b|Permission denied|os error 13\)/i;

/**
 * What kept a write from the disk, from an error's code or text; null for any other failure. A denied open counts
 * only inside `where` (the index folder): a source file the user may not read is no storage problem.
 */
export function storageProblem(e: unknown, where?: string): StorageError['problem'] | null {
  if (e instanceof StorageError) return e.problem;
  if (!(e instanceof Error)) return null;
  const code = (e as NodeJS.ErrnoException).code ?? '';
  const text = `${code} ${e.message}`;
  if (FULL.test(text)) return 'full';
  if (READ_ONLY.test(text)) return 'read-only';
  const { syscall, path: file } = e as NodeJS.ErrnoException;
  // LanceDB's native errors carry neither code nor path; Node's name the call and the file.
  if (DENIED.test(text) && (file ? WRITES.has(syscall ?? '') || (where !== undefined && isInside(where, file)) : !code)) return 'denied';
  return null;
}

const WRITES = new Set(['mkdir', 'rename', 'unlink', 'rmdir', 'write', 'link', 'symlink', 'copyfile', 'utime', 'ftruncate', 'fsync']);

/**
 * The StorageError for a failed write (as it is when it is one already), else null. `where` names the place when
 * the error does not (LanceDB's do not); `need` says how much room the work wanted, when known.
 */
export function asStorageError(e: unknown, where: string, need?: string): StorageError | null {
  if (e instanceof StorageError) return need && e.problem === 'full' && !e.message.includes('need room') ? new StorageError('full', e.where, need) : e;
  const problem = storageProblem(e, where);
  if (!problem) return null;
  const file = (e as NodeJS.ErrnoException).path;
  // The index folder when the file is inside it (a temp file's name says nothing to the user), else the file.
  return new StorageError(problem, file && !isInside(where, file) ? file : where, need);
}

function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return !rel.startsWith('..') && !path.isAbsolute(rel);
}
