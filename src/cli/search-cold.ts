// A search answered in this process, the index opened here. Apart from search-run.ts so that the quick entry
// (quick-search.ts, a bundle of its own) reaches it only by loading this module of the full program, whose errors
// and exit codes are then said by the full program's own code.
import { monotonicMs } from '../util/clock.js';
import { startBackgroundIndex } from './background-index.js';
import { exitCodeSoFar, reportFailure } from './failure.js';
import { openIndexIn } from './options.js';
import { linePlace, type SearchLine } from './search-line.js';
import { checkLanguage, runSearch, type AnswerHere, type SearchPlace } from './search-run.js';

/** The search in this process: the index opened, then searched (latency counted from then, as ever). */
export function searchHere(place: SearchPlace): AnswerHere {
  return async (query, options) => {
    // One search, of the work tree unless only commits are asked for: git reads the work tree meanwhile.
    const workspace = await openIndexIn(place.dir(), place.flags, { startBackgroundIndex, statusAtOpen: !options.committedOnly }, 'existing');
    try {
      const started = monotonicMs();
      if (options.language !== undefined) checkLanguage(options.language);
      return { results: await workspace.search(query, options), started };
    } finally {
      await workspace.close();
    }
  };
}

/** The quick entry's search that no server answered (it asked already): answered here; its exit code. */
export async function searchLineHere(line: SearchLine): Promise<number> {
  const place = linePlace(line);
  try {
    await runSearch(line.words, line.opts, place, searchHere(place), false);
    return exitCodeSoFar();
  } catch (e) {
    return reportFailure(e);
  }
}
