import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from '../util/code-cache.js';
import { testSeams } from '../util/test-seams.js';
import { cacheRoot } from '../workspace/search-ask.js';
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
  return (await coldEntry()).searchLineHere(line);
}

type ColdEntry = typeof import('./search-cold.js');

/**
 * The search in this process: search-cold.cjs, the whole of it in one CommonJS file that V8's code cache compiles
 * (util/code-cache.ts), else (a run from sources, where there is no such file) the main bundle's search-cold.js.
 * Either way the one body of search-cold.ts.
 */
async function coldEntry(): Promise<ColdEntry> {
  const file = fileURLToPath(new URL('./search-cold.cjs', import.meta.url));
  try {
    return requireWithCodeCache(file, path.join(cacheRoot(), 'code')) as ColdEntry;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  return import('./search-cold.js');
}
