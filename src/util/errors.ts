/**
 * The failures a user is shown as one line and an exit code (see README "Exit codes"). They live here, below
 * every layer, because every layer throws them and every surface (CLI, MCP) tells them apart by class.
 */

/** A user-facing failure with a one-line message and an exit code (see README "Exit codes"). */
export class UsageError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
  }
}

/** The store under .ocrag/lance cannot be read; the fix is a rebuild (exit 4, like every "index needs attention"). */
export class StoreDamageError extends UsageError {
  constructor(readonly dir: string, readonly detail: string) {
    super(`the index is damaged (${detail}): run "ocrag index --rebuild" to rebuild it`, 4);
  }
}

/** An artifact that cannot be used: exit code 4 (the index needs attention), one line saying why. */
export class ArtifactError extends UsageError {
  constructor(message: string) {
    super(message, 4);
  }
}

/** Exit code 5 (README "Exit codes"): the model is not there, or not in a form ocrag can run. */
export const MODEL_UNAVAILABLE_EXIT = 5;

/**
 * A model that cannot be used: the message says how to get one. A UsageError, so it reaches the user
 * as it is (never taken for a damaged index) and the CLI exits with its code.
 */
export class ModelUnavailableError extends UsageError {
  constructor(message: string) {
    super(message, MODEL_UNAVAILABLE_EXIT);
  }
}

/** Exit code 6 (README "Exit codes"): a remote store or an artifact's URL could not be reached, or answered with an error. */
export const REMOTE_UNAVAILABLE_EXIT = 6;

/**
 * A remote that could not be reached or refused a request. The message names the place and the status, never a
 * credential or a signed query string.
 */
export class RemoteUnavailableError extends UsageError {
  constructor(message: string, readonly unreachable: boolean) {
    super(message, REMOTE_UNAVAILABLE_EXIT);
  }
}

/** Exit code 7 (README "Exit codes"): ocrag cannot write where it must: the disk is full, or the place is read-only. */
export const STORAGE_EXIT = 7;

/**
 * A write that the disk refused: no space left, a read-only file system, or permission denied. The message names
 * the place and the fix, and says the index is as it was (every run writes its manifest last, and a rebuild is
 * swapped in only once complete), never that it is damaged.
 */
export class StorageError extends UsageError {
  constructor(
    readonly problem: 'full' | 'read-only' | 'denied',
    readonly where: string,
    need?: string,
  ) {
    super(
      problem === 'full'
        ? `no space left on the disk holding ${where}${need ? ` (need room for ${need})` : ''}: free some and run again; the index is as it was`
        : `cannot write to ${where}: ${problem === 'read-only' ? 'the file system is read-only' : 'permission denied'}; make it writable and run again; the index is as it was`,
      STORAGE_EXIT,
    );
  }
}

/**
 * An index folder that is not ocrag's own (tracked by git, a symbolic link, another user's, one made elsewhere):
 * exit 4 (the index needs attention), one line with the fix. Nothing is read from it, written into it or deleted.
 */
export class ForeignIndexError extends UsageError {
  constructor(readonly dir: string, why: string) {
    super(`${dir} ${why}`, 4);
  }
}
