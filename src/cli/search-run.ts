// What `ocrag search` does once its command line is read, by commander (commands/search-command.ts) or by the quick
// entry (quick-search.ts): one body, so that both answer byte for byte alike.
import { OUTPUT_FORMATS, renderer, trimToTokenBudget, type OutputFormat, type SearchReport } from '../render/index.js';
import { CLI_NEXT_STEPS, emptyAnswerNote } from '../render/no-match.js';
import { monotonicMs } from '../util/clock.js';
import { OcragError } from '../util/errors.js';
import { askWarmServer, checkQueryLength } from '../workspace/search-ask.js';
import type { Config, PartialAnswer, SearchResult } from '../workspace/types.js';
import type { SearchQuery } from '../workspace/index.js';
import { notice, paint } from './output.js';

export { OUTPUT_FORMATS };

export interface SearchFlags {
  topK: number;
  path?: string;
  minScore?: number;
  minMatch?: number;
  update: boolean;
  committedOnly?: boolean;
  sources?: boolean;
  source?: string;
  language?: string;
  json?: boolean;
  format?: OutputFormat;
  maxTokens?: number;
  whole?: boolean;
}

/** Where a search runs: its folder (`-C`, checked when first asked for) and the global flags. */
export interface SearchPlace {
  dir: () => string;
  flags: Partial<Config>;
}

/** The search in this process (search-cold.ts): the index opened, then searched; `started` when the search began. */
export type AnswerHere = (query: string, options: SearchQuery) => Promise<{ results: SearchResult[]; started: number }>;

/**
 * The search, printed. `here` answers it in this process when no server does; without it (`null`) the search asks a
 * server only, and false says none answered. `askServer: false`: a server was asked already (quick-search.ts).
 */
export async function runSearch(words: string[], opts: SearchFlags, place: SearchPlace, here: AnswerHere | null, askServer = true): Promise<boolean> {
  const query = words.join(' ').trim();
  if (!query) throw new OcragError('empty query: say what code you are looking for');
  checkQueryLength(query);
  const format = outputFormat(opts);
  const options: SearchQuery = { k: opts.topK, pathGlob: opts.path, source: opts.source, language: opts.language, minScore: opts.minScore, minMatch: opts.minMatch, update: opts.update, committedOnly: opts.committedOnly, sources: opts.sources, whole: opts.whole };
  const started = monotonicMs();
  // A server of this repository running (MCP, panel, watch) has everything loaded: asked first, silently passed
  // over when absent or unfit. A blank --language is left to the CLI's own error.
  const warm = opts.language?.trim() === '' || !askServer ? null : await askWarmServer({ cwd: place.dir(), query, options, flags: place.flags });
  if (!warm && !here) return false;
  if (warm) for (const line of warm.notices) notice(line);
  // A fresh clone's first answer may be partial (its index goes on in the background): said on stderr, and in the report.
  let partial: PartialAnswer | undefined;
  const answer = warm ? { results: warm.results, started } : await here!(query, { ...options, onPartial: (p) => (partial = p) });
  const empty = answer.results.length === 0 ? emptyAnswerNote({ query, minMatch: opts.minMatch ?? 0, language: opts.language, narrowed: opts.path !== undefined || opts.source !== undefined, minScore: opts.minScore }, CLI_NEXT_STEPS) : null;
  if (empty) process.stderr.write(`ocrag: ${empty}\n`);
  printReport({ query, latencyMs: monotonicMs() - answer.started, results: answer.results, ...(partial ? { partial } : {}) }, format, opts.maxTokens, empty !== null);
  return true;
}

function outputFormat(opts: SearchFlags): OutputFormat {
  if (opts.json && opts.format && opts.format !== 'json') throw new OcragError(`--json asks for JSON but --format says ${opts.format}: use one of them`);
  return opts.json ? 'json' : (opts.format ?? 'text');
}

function printReport(report: SearchReport, format: OutputFormat, maxTokens: number | undefined, said = false): void {
  const render = renderer(format, paint(process.stdout));
  if (maxTokens !== undefined) {
    const trimmed = trimToTokenBudget(report, maxTokens, renderer(format));
    // Text goes to a person's terminal, where its own last line says it; a program's stdout says it too (leftOut).
    if (trimmed.report.leftOut && format !== 'text') process.stderr.write(`ocrag: kept ${trimmed.report.results.length} of ${report.results.length} results${trimmed.cut ? ', the best cut to its first lines,' : ''} to fit --max-tokens ${maxTokens} (~${trimmed.tokens} tokens)\n`);
    report = trimmed.report;
  }
  if (format === 'text' && report.results.length === 0) {
    if (!said) process.stderr.write('no results\n');
    return;
  }
  process.stdout.write(render(report));
}

export function checkLanguage(name: string): string {
  if (name.trim() === '') throw new OcragError('--language needs a language name, e.g. typescript, python, go');
  return name;
}

export function parseScore(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < -1 || n > 1) throw new OcragError(`--min-score must be a number from -1 to 1, got "${value}"`);
  return n;
}

export function parseMatch(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new OcragError(`--min-match must be a number from 0 to 1, got "${value}"`);
  return n;
}
