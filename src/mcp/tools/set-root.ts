import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { OcragError } from '../../util/errors.js';
import { guarded } from './errors.js';
import { answer } from './shared.js';
import type { RepoSessions } from '../../workspace/live.js';

const DESCRIPTION = `Switch the repository this server answers for: every later call without a root argument (search_code, find_symbol, index_codebase, index_status, …) is answered from that repository's own index, never mixed with another's. The repository (as path, or as root, the name every other tool gives it) is a git work tree (any folder inside one) or a folder indexed by ocrag; relative paths start where the server started.
Each repository keeps its own index and tasks: a task id of the one before still answers index_status, naming its root. Any tool also takes root to ask another repository once without switching.`;

export function registerSetRoot(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'set_root',
    {
      title: 'Switch repository',
      description: DESCRIPTION,
      inputSchema: {
        path: z.string().trim().min(1).max(1000).optional().describe('the repository (or a folder inside it) to answer for from now on'),
        root: z.string().trim().min(1).max(1000).optional().describe('the same as path, by the name the other tools give it; give one of the two'),
      },
      outputSchema: { root: z.string(), previous: z.string(), served: z.array(z.string()).describe('every repository this server has answered for, the current first') },
      annotations: { title: 'Switch repository', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(log, async () => {
        const previous = sessions.root;
        const { root } = await sessions.setRoot(repositoryOf(args));
        const served = sessions.roots();
        const text = root === previous ? `already serving ${root}` : `now serving ${root} (was ${previous}); calls without root answer from it`;
        return answer({ root, previous, served }, text);
      }),
  );
}

/** The repository asked for: `path` or `root` (both only when they name the same folder). */
function repositoryOf(args: { path?: string; root?: string }): string {
  const { path: given, root } = args;
  if (given !== undefined && root !== undefined && path.resolve(given) !== path.resolve(root)) {
    throw new OcragError(`set_root got path "${given}" and root "${root}": give one repository, as path or as root`);
  }
  const repository = given ?? root;
  if (repository === undefined) throw new OcragError('set_root needs the repository to switch to: give its path as root (or path)');
  return repository;
}
