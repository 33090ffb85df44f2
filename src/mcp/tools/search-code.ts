import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { trimToTokenBudget } from '../../render/budget.js';
import { echoedQuery, leftOutNote, type SearchReport } from '../../render/report.js';
import { agentNextSteps, emptyAnswerNote } from '../../render/no-match.js';
import { guarded } from './errors.js';
import { answer, codeResultSchema, fromContract, progressNotifier, resultsAsText, toCodeResult, typed } from './shared.js';
import type { RepoSessions } from '../../workspace/live.js';

export function registerSearchCode(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'search_code',
    {
      ...fromContract('search_code', { readOnlyHint: true, idempotentHint: true, openWorldHint: false }),
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
    },
    typed('search_code', (args, extra) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const started = performance.now();
        const { results: found, notice } = await session.search(args.query, { k: args.k, pathGlob: args.path_glob, minMatch: args.min_score, whole: args.whole, language: args.language }, progressNotifier(extra));
        const notes: string[] = notice ? [notice] : [];
        const empty = found.length === 0 ? emptyAnswerNote({ query: args.query, minMatch: args.min_score, language: args.language, narrowed: args.path_glob !== undefined }, agentNextSteps('mcp')) : null;
        if (empty) notes.push(empty);
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
    ),
  );
}
