import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded } from './errors.js';
import { answer } from './shared.js';
import type { RepoSessions } from '../../workspace/live.js';

const DESCRIPTION = `Switch the repository this server answers for: every later call without a root argument (search_code, find_symbol, index_codebase, index_status, …) is answered from that repository's own index, never mixed with another's. The path is a git work tree (any folder inside one) or a folder indexed by ocrag; relative paths start where the server started.
Each repository keeps its own index and tasks: a task id of the one before still answers index_status, naming its root. Any tool also takes root to ask another repository once without switching.`;

export function registerSetRoot(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'set_root',
    {
      title: 'Switch repository',
      description: DESCRIPTION,
      inputSchema: { path: z.string().trim().min(1).max(1000).describe('the repository (or a folder inside it) to answer for from now on') },
      outputSchema: { root: z.string(), previous: z.string(), served: z.array(z.string()).describe('every repository this server has answered for, the current first') },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(log, async () => {
        const previous = sessions.root;
        const { root } = await sessions.setRoot(args.path);
        const served = sessions.roots();
        const text = root === previous ? `already serving ${root}` : `now serving ${root} (was ${previous}); calls without root answer from it`;
        return answer({ root, previous, served }, text);
      }),
  );
}
