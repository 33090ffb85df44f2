import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded } from './errors.js';
import { answer, codeResultShape, resultsAsText, fromContract, toCodeResult, typed } from './shared.js';
import type { RepoSessions } from '../../workspace/live.js';

export function registerFindSymbol(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'find_symbol',
    {
      ...fromContract('find_symbol', { readOnlyHint: true, idempotentHint: true, openWorldHint: false }),
      outputSchema: {
        name: z.string(),
        latencyMs: z.number(),
        results: z.array(z.object({ ...codeResultShape, match: z.enum(['exact', 'case-insensitive', 'partial', 'fuzzy']) })),
      },
    },
    typed('find_symbol', (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const started = performance.now();
        const { definitions: results, searched } = await session.findSymbol(args.name, args.k);
        const latencyMs = Math.round(performance.now() - started);
        const structured = { name: args.name, latencyMs, results: results.map(({ result, match }) => ({ ...toCodeResult(result), match })) };
        const note = results.length === 0 ? `no definition named like "${args.name}" among the ${searched} best matches; try search_code` : null;
        return answer(structured, resultsAsText(args.name, latencyMs, structured.results, [note]));
      }),
    ),
  );
}
