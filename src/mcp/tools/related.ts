import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded } from './errors.js';
import { answer, codeResultShape, resultsAsText, fromContract, toCodeResult, typed } from './shared.js';
import type { RepoSessions } from '../../workspace/live.js';

export function registerRelated(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'related',
    {
      ...fromContract('related', { readOnlyHint: true, idempotentHint: true, openWorldHint: false }),
      outputSchema: {
        anchor: z.object({ path: z.string(), quotedPath: z.string().optional(), startLine: z.number(), endLine: z.number(), symbol: z.string() }),
        latencyMs: z.number(),
        results: z.array(z.object(codeResultShape)),
      },
    },
    typed('related', (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const started = performance.now();
        const { anchor, results } = await session.related({ path: args.path, startLine: args.startLine, k: args.k });
        const latencyMs = Math.round(performance.now() - started);
        const codeResults = results.map(toCodeResult);
        return answer({ anchor, latencyMs, results: codeResults }, resultsAsText(`related to ${anchor.path}:${anchor.startLine}-${anchor.endLine}`, latencyMs, codeResults));
      }),
    ),
  );
}
