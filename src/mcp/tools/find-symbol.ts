import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { SearchResult } from '../../search/search.js';
import type { RepoSessions } from '../../session/repo-sessions.js';
import { MATCH_RANK, matchSymbol, type SymbolMatch } from '../symbol-match.js';
import { resultKey } from '../../search/result-path.js';
import { guarded } from './errors.js';
import { answer, codeResultShape, resultsAsText, rootArg, toCodeResult } from './shared.js';

/** Candidates ranked by the hybrid search before names are matched; names weigh heavily in its lexical half. */
const CANDIDATES = 50;

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
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const started = performance.now();
        const view = await session.view();
        const candidates = await session.searchView(view, args.name, { k: CANDIDATES });
        const results = definitions(candidates, args.name).slice(0, args.k);
        const latencyMs = Math.round(performance.now() - started);
        const structured = { name: args.name, latencyMs, results: results.map(({ result, match }) => ({ ...toCodeResult(result), match })) };
        const note = results.length === 0 ? `no definition named like "${args.name}" among the ${candidates.length} best matches; try search_code` : null;
        return answer(structured, resultsAsText(args.name, latencyMs, structured.results, [note]));
      }),
  );
}

/** Chunks whose innermost definition matches, best match first, one per definition (its first chunk). */
export function definitions(candidates: SearchResult[], name: string): { result: SearchResult; match: Exclude<SymbolMatch, 'none'> }[] {
  const first = new Map<string, { result: SearchResult; match: Exclude<SymbolMatch, 'none'> }>();
  for (const result of candidates) {
    const match = matchSymbol(result.symbol, name);
    if (match === 'none') continue;
    const key = `${resultKey(result)}\n${result.symbol}`;
    const seen = first.get(key);
    if (!seen || result.startLine < seen.result.startLine) first.set(key, { result, match });
  }
  return [...first.values()].sort((a, b) => MATCH_RANK[b.match] - MATCH_RANK[a.match] || b.result.score - a.result.score);
}
