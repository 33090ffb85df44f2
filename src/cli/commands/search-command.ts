import { Option, type Command } from 'commander';
import { OUTPUT_FORMATS, renderer, trimToTokenBudget, type OutputFormat, type SearchReport } from '../../render/index.js';
import { checkQueryLength, DEFAULT_MIN_MATCH, MAX_QUERY_CHARS_TEXT, type PartialAnswer } from '../../workspace/types.js';
import { OcragError } from '../../util/errors.js';
import { CLI_NEXT_STEPS, emptyAnswerNote } from '../../render/no-match.js';
import type { SearchQuery, SearchResult } from '../../workspace/index.js';
import { askWarmServer } from '../../workspace/warm.js';
import { configFlags, openIndex, positiveInt, workDir } from '../options.js';
import { notice, paint } from '../output.js';
import { startBackgroundIndex } from '../background-index.js';


interface SearchFlags {
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

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('find the code that matches a question or an identifier, in the checked-out tree')
    .argument('<query...>', `what you are looking for, e.g. "parse command line arguments" or parseArgs; a stack trace or bug report (up to ${MAX_QUERY_CHARS_TEXT} characters) finds where the failure is`)
    .option('-k, --top-k <n>', 'how many results', positiveInt('-k/--top-k', 1000), 10)
    .option('--path <glob>', "only results whose path matches, e.g. 'src/**' or '**/*.py'")
    .option('--min-score <x>', 'drop results scoring below x (relevance 0..1: ~0.3-0.5 weak, 0.6-0.8 good, >0.9 a defining chunk or matching path)', parseScore)
    .option('--min-match <x>', `answer nothing ("no good match") unless a chunk matches at least this well (0..1: closeness in meaning and the share of the question's rarer words it holds, as search_code's min_score); 0 shows the closest chunks whatever they are`, parseMatch, DEFAULT_MIN_MATCH)
    .option('--no-update', 'answer from the index as it is, even if HEAD moved since it was built')
    .option('--committed-only', 'ignore uncommitted edits and untracked files; answer for HEAD as committed')
    .option('--no-sources', 'leave out the sources added with ocrag add')
    .option('--source <name>', 'only results from this source (ocrag add); with --path, the glob is of paths inside it')
    .option('--language <name>', 'only results in this language, e.g. typescript, python, go (as MCP search_code\'s language)')
    .addOption(new Option('--format <format>', 'text for people; json, xml or markdown for programs and LLM prompts').choices(OUTPUT_FORMATS))
    .option('--json', 'the same as --format json: [{path, startLine, endLine, language, symbol, score, text}]')
    .option('--whole', 'show each result\'s whole chunk (default: a chunk over 40 lines shows its definition line and the 24 lines that match best, each cut marked)')
    .option('--max-tokens <n>', 'keep only the best results that fit in about n tokens (a token per 3.4 characters, per Chinese character); when not even the best fits, it comes cut to its location and first lines; the output ends by saying what was left out', positiveInt('--max-tokens'))
    .addHelpText(
      'after',
      '\nAnswers for the checked-out tree plus uncommitted edits and untracked files. If HEAD moved since the\nlast index run, the index is brought up to date first (said on stderr).\n\nxml: <results query latencyMs count> with one <result path startLine endLine score language symbol> per\nchunk, the code in CDATA. markdown: a `path:start-end` heading and a fenced block per result.',
    )
    .action(async (words: string[], opts: SearchFlags, cmd: Command) => {
      const query = words.join(' ').trim();
      if (!query) throw new OcragError('empty query: say what code you are looking for');
      checkQueryLength(query);
      const format = outputFormat(opts);
      const options: SearchQuery = { k: opts.topK, pathGlob: opts.path, source: opts.source, language: opts.language, minScore: opts.minScore, minMatch: opts.minMatch, update: opts.update, committedOnly: opts.committedOnly, sources: opts.sources, whole: opts.whole };
      const started = performance.now();
      // A server of this repository running (MCP, panel, watch) has everything loaded: asked first, silently passed
      // over when absent or unfit. A blank --language is left to the CLI's own error.
      const warm = opts.language?.trim() === '' ? null : await askWarmServer({ cwd: workDir(cmd), query, options, flags: configFlags(cmd) });
      if (warm) for (const line of warm.notices) notice(line);
      // A fresh clone's first answer may be partial (its index goes on in the background): said on stderr, and in the report.
      let partial: PartialAnswer | undefined;
      const answer = warm ? { results: warm.results, started } : await searchHere(cmd, query, { ...options, onPartial: (p) => (partial = p) });
      const empty = answer.results.length === 0 ? emptyAnswerNote({ query, minMatch: opts.minMatch ?? 0, language: opts.language, narrowed: opts.path !== undefined || opts.source !== undefined, minScore: opts.minScore }, CLI_NEXT_STEPS) : null;
      if (empty) process.stderr.write(`ocrag: ${empty}\n`);
      printReport({ query, latencyMs: performance.now() - answer.started, results: answer.results, ...(partial ? { partial } : {}) }, format, opts.maxTokens, empty !== null);
    });
}

/** The search in this process: the index opened, then searched (latency counted from then, as ever). */
async function searchHere(cmd: Command, query: string, options: SearchQuery): Promise<{ results: SearchResult[]; started: number }> {
  const workspace = await openIndex(cmd, { startBackgroundIndex }, 'existing');
  try {
    const started = performance.now();
    if (options.language !== undefined) checkLanguage(options.language);
    return { results: await workspace.search(query, options), started };
  } finally {
    await workspace.close();
  }
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

function checkLanguage(name: string): string {
  if (name.trim() === '') throw new OcragError('--language needs a language name, e.g. typescript, python, go');
  return name;
}

function parseScore(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < -1 || n > 1) throw new OcragError(`--min-score must be a number from -1 to 1, got "${value}"`);
  return n;
}

function parseMatch(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new OcragError(`--min-match must be a number from 0 to 1, got "${value}"`);
  return n;
}
