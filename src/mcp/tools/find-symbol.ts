import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded } from './errors.js';
import { answer, codeResultShape, resultsAsText, rootArg, toCodeResult } from './shared.js';
import type { RepoSessions } from '../../workspace/live.js';

const DESCRIPTION = `Find where a symbol is defined, by name: functions, methods, classes, structs, interfaces, traits, types.
Exact name matches come first (case-sensitive, then case-insensitive), then names containing it, then close spellings. Qualified names work: "Router.handle", "Router::handle", "Cache.Get".
Use it when you know or half-remember an identifier and want its definition; use search_code to find code by what it does.`;

export function registerFindSymbol(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'find_symbol',
    {
      title: 'Find a symbol definition',
      description: DESCRIPTION,
      inputSchema: {
        name: z.string().trim().min(1).max(200).describe('the identifier, optionally qualified: "parseArgs", "Router.handle", "tokio::spawn"'),
        k: z.number().int().min(1).max(50).default(10).describe('how many definitions at most (default 10)'),
        root: rootArg,
      },
      outputSchema: {
        name: z.string(),
        latencyMs: z.number(),
        results: z.array(z.object({ ...codeResultShape, match: z.enum(['exact', 'case-insensitive', 'partial', 'fuzzy']) })),
      },
      annotations: { title: 'Find a symbol definition', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const started = performance.now();
        const { definitions: results, searched } = await session.findSymbol(args.name, args.k);
        const latencyMs = Math.round(performance.now() - started);
        const structured = { name: args.name, latencyMs, results: results.map(({ result, match }) => ({ ...toCodeResult(result), match })) };
        const note = results.length === 0 ? `no definition named like "${args.name}" among the ${searched} best matches; try search_code` : null;
        return answer(structured, resultsAsText(args.name, latencyMs, structured.results, [note]));
      }),
  );
}
