import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded } from './errors.js';
import { answer, fromContract, typed } from './shared.js';
import type { RepoSessions } from '../../workspace/live.js';

const sourceShape = z.object({ name: z.string(), root: z.string(), addedAt: z.string() });

export function registerSources(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'add_source',
    {
      ...fromContract('add_source', { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }),
      outputSchema: { added: z.array(z.object({ name: z.string(), root: z.string(), files: z.number() })) },
    },
    typed('add_source', (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const added = await session.addSources([args.path], args.name);
        return answer({ added }, added.map((a) => `added source "${a.name}" (${a.root}): ${a.files} files searchable as ${a.name}:<path>`).join('\n'));
      }),
    ),
  );

  server.registerTool(
    'remove_source',
    {
      ...fromContract('remove_source', { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }),
      outputSchema: { removed: sourceShape },
    },
    typed('remove_source', (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const removed = await session.removeSource(args.source);
        return answer({ removed }, `removed source "${removed.name}" (${removed.root})`);
      }),
    ),
  );

  server.registerTool(
    'list_sources',
    {
      ...fromContract('list_sources', { readOnlyHint: true, idempotentHint: true, openWorldHint: false }),
      outputSchema: { sources: z.array(sourceShape) },
    },
    typed('list_sources', (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const sources = await session.listSources();
        return answer({ sources }, sources.length ? sources.map((s) => `${s.name}: ${s.root}`).join('\n') : 'no sources: only the repository is searched');
      }),
    ),
  );
}
