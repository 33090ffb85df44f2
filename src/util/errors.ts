/**
 * The failures a user is shown as one line. They live here, below every layer, because every layer throws them;
 * every surface tells them apart by `kind` and says what to do from `remedy`, each its own way: the CLI's exit
 * code and line (README "Exit codes"), an MCP tool error naming the call to make, the panel's HTTP status.
 */

/**
 * What kind of failure it is: `usage` a bad request (a flag, a query, a path), `no-workspace` nowhere to work (no
 * repository nor indexed folder, no commits), `index` the index needs attention (missing, damaged, another
 * model, a refused artifact or remote), `model` no usable model, `remote` a remote that cannot be reached,
 * `storage` a write the disk refuses, `failed` the environment is not fit (a port taken, a git too old).
 */
export type ErrorKind = 'usage' | 'no-workspace' | 'index' | 'model' | 'remote' | 'storage' | 'failed';

/** What fixes it, as data: an index run (`full`: built again from scratch). */
export interface Remedy {
  action: 'index';
  full: boolean;
}

/** A run of the index fixes it; `full`: a rebuild. */
export const INDEX_RUN: Remedy = Object.freeze({ action: 'index', full: false });
export const REBUILD: Remedy = Object.freeze({ action: 'index', full: true });

/** A failure the user is told in one line; what it is and what fixes it are data beside the words. */
export class OcragError extends Error {
  constructor(
    message: string,
    readonly kind: ErrorKind = 'usage',
    readonly remedy: Remedy | null = null,
  ) {
    super(message);
  }
}

/** The store under .ocrag/lance cannot be read; the fix is a rebuild (exit 4, like every "index needs attention"). */
export class StoreDamageError extends OcragError {
  constructor(readonly dir: string, readonly detail: string) {
    super(`the index is damaged (${detail}): run "ocrag index --rebuild" to rebuild it`, 'index', REBUILD);
  }
}

/** An artifact that cannot be used: exit code 4 (the index needs attention), one line saying why. */
export class ArtifactError extends OcragError {
  constructor(message: string) {
    super(message, 'index');
  }
}

/**
 * A model that cannot be used: the message says how to get one. A OcragError, so it reaches the user
 * as it is (never taken for a damaged index) and the CLI exits with its code.
 */
export class ModelUnavailableError extends OcragError {
  constructor(message: string) {
    super(message, 'model');
  }
}

/**
 * A remote that could not be reached or refused a request. The message names the place and the status, never a
 * credential or a signed query string.
 */
export class RemoteUnavailableError extends OcragError {
  constructor(message: string, readonly unreachable: boolean) {
    super(message, 'remote');
  }
}

/**
 * A write that the disk refused: no space left, a read-only file system, or permission denied. The message names
 * the place and the fix, and says the index is as it was (every run writes its manifest last, and a rebuild is
 * swapped in only once complete), never that it is damaged.
 */
export class StorageError extends OcragError {
  constructor(
    readonly problem: 'full' | 'read-only' | 'denied',
    readonly where: string,
    need?: string,
  ) {
    super(
      problem === 'full'
        ? `no space left on the disk holding ${where}${need ? ` (need room for ${need})` : ''}: free some and run again; the index is as it was`
        : `cannot write to ${where}: ${problem === 'read-only' ? 'the file system is read-only' : 'permission denied'}; make it writable and run again; the index is as it was`,
      'storage',
    );
  }
}

/**
 * An index folder that is not ocrag's own (tracked by git, a symbolic link, another user's, one made elsewhere):
 * exit 4 (the index needs attention), one line with the fix. Nothing is read from it, written into it or deleted.
 */
export class ForeignIndexError extends OcragError {
  constructor(readonly dir: string, why: string) {
    super(`${dir} ${why}`, 'index');
  }
}
