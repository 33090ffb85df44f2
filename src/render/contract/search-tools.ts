import { DEFAULT_MIN_MATCH } from '../../search/relevance.js';
import { MAX_QUERY_CHARS } from '../../search/query-limit.js';
import type { OutputFormat } from '../report.js';
import type { ArgSpec, Wording } from './args.js';

/** How many results a call may ask for: enough for a wide look, few enough to stay in an agent's context. */
export const MAX_K = 50;
export const DEFAULT_K = 10;

/** The repository a call is for, when not the one set_root chose (or the server started in). OpenCode names the project itself. */
export const ROOT_ARG = {
  type: 'string',
  min: 1,
  max: 1000,
  only: 'mcp',
  description: (w: Wording) => `the repository to answer for (a path; default: the one ${w.tool('set_root')} chose, else where the server started)`,
} as const satisfies ArgSpec;

/** A count of results; its description reads its own bounds, so a changed bound is said where it is set. */
function k(what: string): { type: 'integer'; min: number; max: number; default: number; description: () => string } {
  const arg = { type: 'integer' as const, min: 1, max: MAX_K, default: DEFAULT_K, description: () => `${what} (${arg.min}-${arg.max}, default ${arg.default})` };
  return arg;
}

/** A number as people read it: 10,000. */
export const shownNumber = (n: number) => n.toLocaleString('en-US');

export const SEARCH_CODE = {
  title: 'Search code',
  surfaces: ['mcp', 'opencode'],
  description: () => `Search the code of this git repository (the checked-out branch, including uncommitted edits) by meaning and by name.
Use it before opening files you don't know yet: to find where something is implemented, configured, tested or used.
Ask in plain words ("where are HTTP retries configured", "parse command line arguments") or with identifiers ("parseArgs", "Router.handle"); prefer exact identifiers when you have them, they rank exact matches first.
A stack trace, error output or bug report pasted whole (up to ${shownNumber(SEARCH_CODE.args.query.max)} characters) finds where the failure is: the project's own frames, identifiers and error names count most.
Questions may be in Chinese ("解析命令行参数", "parseArgs 在哪里定义", "鉴权中间件"): Chinese is matched to English code and to Chinese comments and docs; putting the English identifiers you know into the question helps most.
Returns the best chunks (whole functions, classes, methods, or ~60-line windows of other files), best first, each with path, startLine-endLine, enclosing symbol, score and the code (a chunk over 40 lines shows its definition line and the lines that match best, each cut marked with its line numbers), so you can often answer without opening the file.
The index follows HEAD by itself: after a commit or a branch switch the next search updates it first.`,
  args: {
    query: {
      type: 'string',
      trim: true,
      min: 1,
      max: MAX_QUERY_CHARS,
      required: true,
      description: () => `what you are looking for: a question, a description of behaviour, an identifier, or a stack trace or bug report (up to ${shownNumber(SEARCH_CODE.args.query.max)} characters); English or Chinese`,
    },
    k: k('how many results'),
    path_glob: { type: 'string', min: 1, max: 500, description: 'only paths matching this glob from the repository root, e.g. "src/**" or "**/*.py"; a glob no file matches is an error saying so' },
    language: { type: 'string', min: 1, max: 40, description: 'only this language, e.g. "typescript", "python", "rust", "go"; a language no file is in is an error saying so' },
    whole: { type: 'boolean', description: 'the whole chunk of each result; by default a chunk over 40 lines shows its definition line and the lines that match best' },
    max_tokens: {
      type: 'integer',
      min: 100,
      max: 200_000,
      description: 'keep only the best results that fit in about this many tokens (Chinese counted as LLMs count it); when not even the best result fits, it comes cut to its path, lines, symbol and first lines; what was left out is said at the end',
    },
    min_score: {
      type: 'number',
      min: 0,
      max: 1,
      default: DEFAULT_MIN_MATCH,
      description: () => `how well a chunk must match for an answer (0..1: closeness in meaning and the share of the question's rarer words it holds; default ${SEARCH_CODE.args.min_score.default}; an identifier the repository defines always counts); below it the answer is "no good match". 0 keeps everything`,
    },
    format: {
      type: 'enum',
      values: ['markdown', 'text', 'json', 'xml'] as const satisfies readonly OutputFormat[],
      default: 'markdown',
      only: 'opencode',
      description: 'how results come: markdown (default: a path:lines heading and a fenced block each), text, json, or xml (one <result> per chunk, the code in CDATA)',
    },
    root: ROOT_ARG,
  },
} as const;

export const FIND_SYMBOL = {
  title: 'Find a symbol definition',
  surfaces: ['mcp', 'opencode'],
  description: (w: Wording) => `Find where a symbol is defined, by name: functions, methods, classes, structs, interfaces, traits, types.
Exact name matches come first (case-sensitive, then case-insensitive), then names containing it, then close spellings. Qualified names work: "Router.handle", "Router::handle", "Cache.Get".
Use it when you know or half-remember an identifier and want its definition; use ${w.tool('search_code')} to find code by what it does.`,
  args: {
    name: { type: 'string', trim: true, min: 1, max: 200, required: true, description: 'the identifier, optionally qualified: "parseArgs", "Router.handle", "tokio::spawn"' },
    k: k('how many definitions at most'),
    root: ROOT_ARG,
  },
} as const;

export const RELATED = {
  title: 'Related code',
  surfaces: ['mcp', 'opencode'],
  description: `Find code similar to a location: give the path (and a line) of a function or block you are looking at, get other chunks that do similar things — sibling implementations, duplicated logic, the matching tests or handlers.
The chunk at that location (the function, class or window containing the line; the file's first chunk without a line) is the query and is left out of the results.`,
  args: {
    path: { type: 'string', trim: true, min: 1, max: 1000, required: true, description: (w: Wording) => `file path from the repository root, as ${w.tool('search_code')} returns it (its quotedPath when it has one)` },
    startLine: { type: 'integer', min: 1, description: 'a line inside the code of interest (1-based); default: the start of the file' },
    k: k('how many results'),
    root: ROOT_ARG,
  },
} as const;
