import { testSeams } from '../util/test-seams.js';
import { exitCodeSoFar, reportFailure } from './failure.js';
import { linePlace, readSearchLine } from './search-line.js';
import { runSearch } from './search-run.js';

/**
 * A plain `ocrag search`, run without commander and the command table: a bundle of one file (scripts/bundle-cli.mjs)
 * that asks a running server and prints its answer, the same search body as the full program's (search-run.ts), the
 * same failure lines and exit codes. When no server answers, the full program's search-cold.ts answers in this
 * process; null when the command line is not one this reads with certainty (search-line.ts): the full program runs it.
 * A warm search was ~50 ms of module loading beyond Node's own start through the full program (issue 31).
 */
export async function quickSearch(argv: string[]): Promise<number | null> {
  const line = testSeams().fullProgram ? null : readSearchLine(argv.slice(2));
  if (!line) return null;
  try {
    if (await runSearch(line.words, line.opts, linePlace(line), null)) return exitCodeSoFar();
  } catch (e) {
    return reportFailure(e);
  }
  return (await import('./search-cold.js')).searchLineHere(line);
}
