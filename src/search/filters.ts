import { createRequire } from 'node:module';
import { detectLanguage, FIRST_LINE_LANGUAGES, RECORDED_LANGUAGES } from '../chunk/languages.js';
import { OcragError } from '../util/errors.js';
import { languagesFor } from './language.js';
import type { SearchView } from './view.js';

/**
 * Why a filtered search answers nothing, when the filter itself is the reason: a path glob no file of the view
 * matches (or one that is not a glob at all), a language no file of the view is in, a language ocrag never records.
 * Each is a bad request, said in one line with what there is instead, never an empty answer that reads like "nothing
 * here is close enough". Worked out only when the answer is empty (or the view is), so a search that finds something
 * pays nothing for it.
 */

/** How many folders or languages an error names as what there is. */
const NAMED = 6;

/** A language name no chunk is ever recorded with: refused before anything is searched. */
export function checkLanguageName(filter: string): void {
  const languages = languagesFor(filter);
  if ([...languages].some((l) => RECORDED_LANGUAGES.has(l))) return;
  throw new OcragError(`unknown language "${filter}": name one like typescript, javascript, python, go, rust, java, c, cpp, c_sharp, ruby, php, kotlin, swift, markdown (or ts, py, rs, golang)`);
}

/** A path glob that leaves the view without a file: said as invalid when it does not parse strictly, else as matching nothing. */
export function noFileMatches(glob: string, all: SearchView): OcragError {
  const invalid = globProblem(glob);
  if (invalid) return new OcragError(`invalid path glob "${glob}": ${invalid} (a bracket, brace or parenthesis meant as itself is written with a backslash before it)`);
  const folders = topFolders(all);
  const here = folders.length ? `; the top folders here: ${folders.slice(0, NAMED).join(', ')}${folders.length > NAMED ? ', …' : ''}` : '';
  return new OcragError(`no file matches the path glob "${glob}" (of ${all.files.length} files searched): a glob matches whole paths from the repository root, e.g. "src/**" or "**/*.py"${here}`);
}

/**
 * When a language filter answered nothing: an error if no file of the view can be in that language (by its name, or,
 * for a name that says nothing, by a first line that could make it one), else nothing (the answer stays empty as
 * ranked, "no good match" or no result of that language among the best).
 */
export function checkLanguageInView(filter: string, view: SearchView, pathGlob?: string): void {
  const languages = languagesFor(filter);
  const byFirstLine = [...languages].some((l) => FIRST_LINE_LANGUAGES.has(l));
  const counts = new Map<string, number>();
  for (const f of view.files) {
    const language = detectLanguage(f.display);
    if (languages.has(language) || (byFirstLine && language === 'text')) return;
    counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const present = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([l, n]) => `${l} (${n})`);
  const where = pathGlob ? ` matching "${pathGlob}"` : '';
  const here = present.length ? `: the languages here are ${present.slice(0, NAMED).join(', ')}${present.length > NAMED ? ', …' : ''}` : '';
  throw new OcragError(`no ${filter} file among the ${view.files.length} files${where}${here}`);
}

/** What is wrong with a glob that picomatch would read leniently (an unclosed `[`, `{` or `(`), or null. */
function globProblem(glob: string): string | null {
  const picomatch = createRequire(import.meta.url)('picomatch') as typeof import('picomatch');
  try {
    picomatch.makeRe(glob, { strictBrackets: true });
    return null;
  } catch (e) {
    return (e instanceof Error ? e.message : String(e)).replace(/\s*-\s*use .*$/, '').replace(/^Missing closing: /, 'missing closing ');
  }
}

/** The first path segment of every file of the view, most files first (a source's files count as `name:`). */
function topFolders(view: SearchView): string[] {
  const counts = new Map<string, number>();
  for (const f of view.files) {
    const slash = f.display.indexOf('/');
    if (slash < 0) continue;
    const top = f.display.slice(0, slash);
    counts.set(top, (counts.get(top) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([top]) => top);
}
