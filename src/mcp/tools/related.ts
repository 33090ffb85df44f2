import fs from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { chunkFile } from '../../chunk/index.js';
import { embeddingText } from '../../index/embed-blobs.js';
import { keyFsPath, pathFields, shownPath } from '../../git/path-key.js';
import { namedFile, resultKey } from '../../search/result-path.js';
import { OcragError } from '../../util/errors.js';
import { formatBreadcrumb } from '../../text/breadcrumb.js';
import type { RepoSessions } from '../../session/repo-sessions.js';
import { guarded } from './errors.js';
import { answer, codeResultShape, resultsAsText, rootArg, toCodeResult } from './shared.js';

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
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const started = performance.now();
        const view = await session.view();
        const given = args.path.startsWith('"') ? args.path : args.path.replace(/\\/g, '/').replace(/^\.\//, '');
        const named = namedFile(view.files, given);
        if (!named) throw new OcragError(Object.hasOwn(view.skipped, given) ? `${shownPath(given)} is not indexed (skipped: ${view.skipped[given]})` : `${shownPath(given)} is not in the index: give a path from the repository root, as search_code returns it`);
        if ('ambiguous' in named) throw new OcragError(`${given} names ${named.ambiguous.length} files (${named.ambiguous.join(', ')}): give the quotedPath search_code returns`);
        const rel = named.key;
        const ctx = await session.context();
        const anchor = await chunkAt(ctx.repo.root, rel, args.startLine, ctx.config.maxLineChars);
        const candidates = await session.searchView(view, embeddingText(anchor), { k: args.k + 10 });
        const results = candidates.filter((r) => resultKey(r) !== rel || r.endLine < anchor.startLine || r.startLine > anchor.endLine).slice(0, args.k);
        const latencyMs = Math.round(performance.now() - started);
        const anchorInfo = { ...pathFields(rel), startLine: anchor.startLine, endLine: anchor.endLine, symbol: formatBreadcrumb(anchor.symbols) };
        const codeResults = results.map(toCodeResult);
        return answer({ anchor: anchorInfo, latencyMs, results: codeResults }, resultsAsText(`related to ${shownPath(rel)}:${anchor.startLine}-${anchor.endLine}`, latencyMs, codeResults));
      }),
  );
}

/** The chunk of the file keyed `rel` (as it is on disk) that holds the line: the innermost, that is the shortest, of those that do. */
async function chunkAt(root: string, rel: string, line: number | undefined, maxLineChars: number) {
  const shown = shownPath(rel);
  let text: string;
  try {
    text = fs.readFileSync(keyFsPath(root, rel), 'utf8');
  } catch {
    throw new OcragError(`${shown} is in the index but not on disk (deleted?)`);
  }
  const chunks = await chunkFile(shown, text, { maxLineChars });
  if (chunks.length === 0) throw new OcragError(`${shown} has no code to compare (empty?)`);
  if (line === undefined) return chunks[0];
  const holding = chunks.filter((c) => c.startLine <= line && line <= c.endLine).sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine));
  if (holding.length === 0) throw new OcragError(`${shown} has no chunk at line ${line} (it has ${text.split('\n').length} lines)`);
  return holding[0];
}
