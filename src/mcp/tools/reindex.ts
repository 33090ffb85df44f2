import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RepoSession } from '../../session/session.js';
import { guarded } from './errors.js';
import { answer } from './shared.js';

const REINDEX = `Start updating the code index in the background and return at once; follow progress with index_status, stop it with index_cancel.
Rarely needed: search_code updates the index itself when HEAD moved. Use it after a large change you want indexed ahead of time, or with full=true to rebuild from scratch when index_status or an error says the index is damaged or was built with another model (a full rebuild makes search unavailable until it finishes).`;

const CANCEL = `Stop the background reindex started with reindex. Work already stored is kept and the previous index stays searchable; the next search or reindex finishes the job incrementally.`;

export function registerReindex(server: McpServer, session: RepoSession, log: (message: string) => void): void {
  server.registerTool(
    'reindex',
    {
      title: 'Reindex in the background',
      description: REINDEX,
      inputSchema: { full: z.boolean().default(false).describe('drop the index and embed everything again (slow); default: only what changed') },
      outputSchema: { started: z.boolean(), state: z.string(), kind: z.enum(['incremental', 'full']).nullable(), message: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(log, async () => {
        const kind = args.full ? 'full' : 'incremental';
        const { started } = await session.startTask(kind);
        const job = session.reindexSnapshot();
        const message = started
          ? `${kind} reindex started; follow it with index_status`
          : `a ${job.kind} reindex is already running (${job.percent}%); follow it with index_status or stop it with index_cancel`;
        return answer({ started, state: job.state, kind: job.kind, message }, message);
      }),
  );

  server.registerTool(
    'index_cancel',
    {
      title: 'Cancel the reindex',
      description: CANCEL,
      inputSchema: {},
      outputSchema: { cancelled: z.boolean(), state: z.string(), message: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () =>
      guarded(log, async () => {
        const cancelled = session.tasks.cancel();
        const job = session.reindexSnapshot();
        const message = cancelled ? 'stopping the reindex after its current batch; index_status shows when it has stopped' : 'no reindex is running';
        return answer({ cancelled, state: job.state, message }, message);
      }),
  );
}
