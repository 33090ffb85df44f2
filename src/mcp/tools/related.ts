import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded } from './errors.js';
import { answer, codeResultShape, resultsAsText, rootArg, toCodeResult } from './shared.js';
import type { RepoSessions } from '../../workspace/live.js';

const DESCRIPTION = `Find code similar to a location: give the path (and a line) of a function or block you are looking at, get other chunks that do similar things — sibling implementations, duplicated logic, the matching tests or handlers.
The chunk at that location (the function, class or window containing the line; the file's first chunk without a line) is the query and is left out of the results.`;

export function registerRelated(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'related',
    {
      title: 'Related code',
      description: DESCRIPTION,
      inputSchema: {
        path: z.string().trim().min(1).max(1000).describe('file path from the repository root, as search_code returns it (its quotedPath when it has one)'),
        startLine: z.number().int().min(1).optional().describe('a line inside the code of interest (1-based); default: the start of the file'),
        k: z.number().int().min(1).max(50).default(10).describe('how many results (default 10)'),
        root: rootArg,
      },
      outputSchema: {
        anchor: z.object({ path: z.string(), quotedPath: z.string().optional(), startLine: z.number(), endLine: z.number(), symbol: z.string() }),
        latencyMs: z.number(),
        results: z.array(z.object(codeResultShape)),
      },
      annotations: { title: 'Related code', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const started = performance.now();
        const { anchor, results } = await session.related({ path: args.path, startLine: args.startLine, k: args.k });
        const latencyMs = Math.round(performance.now() - started);
        const codeResults = results.map(toCodeResult);
        return answer({ anchor, latencyMs, results: codeResults }, resultsAsText(`related to ${anchor.path}:${anchor.startLine}-${anchor.endLine}`, latencyMs, codeResults));
      }),
  );
}
