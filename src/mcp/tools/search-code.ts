import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { trimToTokenBudget } from '../../render/budget.js';
import { echoedQuery, leftOutNote, type SearchReport } from '../../render/report.js';
import { guarded } from './errors.js';
import { answer, codeResultSchema, progressNotifier, resultsAsText, rootArg, toCodeResult } from './shared.js';
import type { RepoSessions } from '../../workspace/live.js';
import { DEFAULT_MIN_MATCH, MAX_QUERY_CHARS, MAX_QUERY_CHARS_TEXT } from '../../workspace/types.js';

const DESCRIPTION = `Search the code of this git repository (the checked-out branch, including uncommitted edits) by meaning and by name.
Use it before opening files you don't know yet: to find where something is implemented, configured, tested or used.
Ask in plain words ("where are HTTP retries configured", "parse command line arguments") or with identifiers ("parseArgs", "Router.handle"); prefer exact identifiers when you have them, they rank exact matches first.
A stack trace, error output or bug report pasted whole (up to ${MAX_QUERY_CHARS_TEXT} characters) finds where the failure is: the project's own frames, identifiers and error names count most.
Questions may be in Chinese ("解析命令行参数", "parseArgs 在哪里定义", "鉴权中间件"): Chinese is matched to English code and to Chinese comments and docs; putting the English identifiers you know into the question helps most.
Returns the best chunks (whole functions, classes, methods, or ~60-line windows of other files), best first, each with path, startLine-endLine, enclosing symbol, score and the code (a chunk over 40 lines shows its definition line and the lines that match best, each cut marked with its line numbers), so you can often answer without opening the file.
The index follows HEAD by itself: after a commit or a branch switch the next search updates it first.`;

export function registerSearchCode(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'search_code',
    {
      title: 'Search code',
      description: DESCRIPTION,
      inputSchema: {
        query: z.string().trim().min(1).max(MAX_QUERY_CHARS).describe(`what you are looking for: a question, a description of behaviour, an identifier, or a stack trace or bug report (up to ${MAX_QUERY_CHARS_TEXT} characters); English or Chinese`),
        k: z.number().int().min(1).max(50).default(10).describe('how many results (1-50, default 10)'),
        path_glob: z.string().min(1).max(500).optional().describe('only paths matching this glob from the repository root, e.g. "src/**" or "**/*.py"; a glob no file matches is an error saying so'),
        language: z.string().min(1).max(40).optional().describe('only this language, e.g. "typescript", "python", "rust", "go"; a language no file is in is an error saying so'),
        whole: z.boolean().optional().describe('the whole chunk of each result; by default a chunk over 40 lines shows its definition line and the lines that match best'),
        max_tokens: z
          .number()
          .int()
          .min(100)
          .max(200_000)
          .optional()
          .describe('keep only the best results that fit in about this many tokens (Chinese counted as LLMs count it); when not even the best result fits, it comes cut to its path, lines, symbol and first lines; what was left out is said at the end'),
        min_score: z
          .number()
          .min(0)
          .max(1)
          .default(DEFAULT_MIN_MATCH)
          .describe(`how closely the best chunk must match for an answer (similarity 0..1, default ${DEFAULT_MIN_MATCH}; a chunk sharing the query's words strongly always counts); below it the answer is "no good match". 0 keeps everything`),
        root: rootArg,
      },
      outputSchema: {
        query: z.string().describe('the query; one over 120 characters (a pasted trace) by the start of its first line and its length'),
        latencyMs: z.number(),
        results: z.array(codeResultSchema),
        notice: z.string().optional().describe('something the agent should know about these results'),
        leftOut: z
          .object({ dropped: z.number().int(), cut: z.number().int(), maxTokens: z.number().int() })
          .optional()
          .describe('present when max_tokens left something out: lower-ranked results dropped, results cut to their first lines'),
      },
      annotations: { title: 'Search code', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const started = performance.now();
        const { results: found, notice } = await session.search(args.query, { k: args.k, pathGlob: args.path_glob, minMatch: args.min_score, whole: args.whole, language: args.language }, progressNotifier(extra));
        const notes: string[] = notice ? [notice] : [];
        if (found.length === 0 && args.language) notes.push(`no ${args.language} results among the best matches${args.min_score > 0 ? ` close enough in meaning (min_score ${args.min_score})` : ''}; try without language or with path_glob`);
        else if (found.length === 0 && args.min_score > 0) notes.push(noGoodMatch(args.query, args.min_score));
        // The budget counts the text as the agent reads it: the notes, the results and the line saying what was left out.
        const asText = (r: SearchReport) => resultsAsText(r.query, r.latencyMs, r.results.map(toCodeResult), notes, r.leftOut);
        let report: SearchReport = { query: args.query, latencyMs: Math.round(performance.now() - started), results: found };
        if (args.max_tokens !== undefined) report = trimToTokenBudget(report, args.max_tokens, asText).report;
        const { leftOut } = report;
        const codeResults = report.results.map(toCodeResult);
        const said = [...notes, ...(leftOut ? [leftOutNote(leftOut)] : [])];
        const structured = { query: echoedQuery(args.query), latencyMs: report.latencyMs, results: codeResults, ...(said.length ? { notice: said.join('; ') } : {}), ...(leftOut ? { leftOut } : {}) };
        return answer(structured, asText(report));
      }),
  );
}

/** What an agent is told instead of the closest noise, with what to try next. */
function noGoodMatch(query: string, minScore: number): string {
  return `no good match for "${query}": nothing in this repository is close enough in meaning (min_score ${minScore}) or shares its words; try other words or an identifier you know, find_symbol for a name, or min_score=0 to see the closest chunks anyway`;
}
