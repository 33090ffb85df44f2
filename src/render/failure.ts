import path from 'node:path';
import { GitError } from '../git/run.js';
import { OcragError } from '../util/errors.js';
import { asStorageError } from '../util/storage-problem.js';

/**
 * A failure as ocrag tells it, whatever surface says it (the CLI's stderr, the plugin host's error reply): what it
 * is, when known (an OcragError, or a write the disk refused where no layer said so), and its one line.
 */
export function knownFailure(e: unknown): OcragError | null {
  if (e instanceof OcragError) return e;
  if (e instanceof GitError) return null;
  const file = (e as NodeJS.ErrnoException)?.path;
  return asStorageError(e, file ? path.dirname(file) : 'the current folder');
}

/** A git command that failed: said as git said it, never with a stack. */
export function isGitFailure(e: unknown): boolean {
  return e instanceof GitError;
}

export function failureLine(e: unknown): string {
  if (e instanceof GitError) return `ocrag: git: ${e.message}`;
  const known = knownFailure(e);
  return `ocrag: ${known ? known.message : ((e as Error)?.message ?? String(e))}`;
}
