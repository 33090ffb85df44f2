import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded } from './errors.js';
import { answer, rootArg } from './shared.js';
import type { RepoSessions } from '../../workspace/live.js';

const ADD = `Add a folder or file outside the repository's tree (design docs, a spec PDF, CSV exports, a sibling checkout) as a source: search_code then searches it beside the code, naming its results <source>:<path>. Only folders the user allowed (sourceRoots in .ocrag/config.json) may be added; anything else is refused with the setting that would allow it.`;
const REMOVE = `Remove a source added with add_source (by name or path): search_code stops returning it.`;
const LIST = `List the sources search_code searches beside the repository's tree: name, folder, when added.`;

const sourceShape = z.object({ name: z.string(), root: z.string(), addedAt: z.string() });

export function registerSources(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'add_source',
    {
      title: 'Add a source',
      description: ADD,
      inputSchema: {
        path: z.string().min(1).describe('folder or file; relative paths are relative to the repository root'),
        name: z.string().min(1).optional().describe('what results call it (default: the folder name)'),
        root: rootArg,
      },
      outputSchema: { added: z.array(z.object({ name: z.string(), root: z.string(), files: z.number() })) },
      annotations: { title: 'Add a source', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const added = await session.addSources([args.path], args.name);
        return answer({ added }, added.map((a) => `added source "${a.name}" (${a.root}): ${a.files} files searchable as ${a.name}:<path>`).join('\n'));
      }),
  );

  server.registerTool(
    'remove_source',
    {
      title: 'Remove a source',
      description: REMOVE,
      inputSchema: { source: z.string().min(1).describe('the source name, or the path it was added with'), root: rootArg },
      outputSchema: { removed: sourceShape },
      annotations: { title: 'Remove a source', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const removed = await session.removeSource(args.source);
        return answer({ removed }, `removed source "${removed.name}" (${removed.root})`);
      }),
  );

  server.registerTool(
    'list_sources',
    {
      title: 'List sources',
      description: LIST,
      inputSchema: { root: rootArg },
      outputSchema: { sources: z.array(sourceShape) },
      annotations: { title: 'List sources', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(log, async () => {
        const session = await sessions.get(args.root);
        const sources = await session.listSources();
        return answer({ sources }, sources.length ? sources.map((s) => `${s.name}: ${s.root}`).join('\n') : 'no sources: only the repository is searched');
      }),
  );
}
