import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { OcragError } from '../../util/errors.js';
import { guarded } from './errors.js';
import { answer, fromContract, typed } from './shared.js';
import type { RepoSessions } from '../../workspace/live.js';

export function registerSetRoot(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'set_root',
    {
      ...fromContract('set_root', { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }),
      outputSchema: { root: z.string(), previous: z.string(), served: z.array(z.string()).describe('every repository this server has answered for, the current first') },
    },
    typed('set_root', (args) =>
      guarded(log, async () => {
        const previous = sessions.root;
        const { root } = await sessions.setRoot(repositoryOf(args));
        const served = sessions.roots();
        const text = root === previous ? `already serving ${root}` : `now serving ${root} (was ${previous}); calls without root answer from it`;
        return answer({ root, previous, served }, text);
      }),
    ),
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
