// Exit codes and the line a failure prints: shared by the full program (program.ts) and the quick entry of a plain
// search (quick-search.ts), which must end alike without loading commander.
import { debugStacks } from '../workspace/environment.js';
import type { ErrorKind } from '../util/errors.js';
import { failureLine, isGitFailure, knownFailure } from '../render/failure.js';

/** Exit codes, documented in the README and in `ocrag --help`. */
export const EXIT = { ok: 0, error: 1, usage: 2, noRepo: 3, index: 4, model: 5, remote: 6, storage: 7 } as const;

/** Each kind of failure's exit code (README "Exit codes"). */
const EXIT_OF: Record<ErrorKind, number> = { failed: EXIT.error, usage: EXIT.usage, 'no-workspace': EXIT.noRepo, index: EXIT.index, model: EXIT.model, remote: EXIT.remote, storage: EXIT.storage };

/** The exit code of a run that threw nothing: the one a command set (doctor's failed check…), else ok. */
export function exitCodeSoFar(): number {
  return process.exitCode === undefined ? EXIT.ok : Number(process.exitCode);
}

/** Says a failure that is not commander's on stderr (its stack too when asked for) and gives its exit code. */
export function reportFailure(e: unknown): number {
  // A write the disk refused where no layer said so (a lock file, an artifact's temp file) is exit 7 (render/failure.ts).
  const known = knownFailure(e);
  process.stderr.write(`${failureLine(e)}\n`);
  if (!known && !isGitFailure(e) && debugStacks()) process.stderr.write(`${(e as Error)?.stack}\n`);
  return known ? EXIT_OF[known.kind] : EXIT.error;
}
