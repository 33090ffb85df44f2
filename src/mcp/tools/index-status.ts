import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded } from './errors.js';
import { answer, fromContract, typed } from './shared.js';
import { describeTask, findTask, taskShape, toTaskView } from './task.js';
import type { RepoSessions, SessionStatus } from '../../workspace/live.js';

export function registerIndexStatus(server: McpServer, sessions: RepoSessions, log: (message: string) => void): void {
  server.registerTool(
    'index_status',
    {
      ...fromContract('index_status', { readOnlyHint: true, idempotentHint: true, openWorldHint: false }),
      outputSchema: {
        task: taskShape.nullable().describe('the asked task; without task_id the running task, else the last one (null when none ran)'),
        root: z.string().optional(),
        plainFolder: z.boolean().optional().describe('a folder outside git indexed as a knowledge base: no branch, HEAD or uncommitted changes'),
        branch: z.string().nullable().optional(),
        head: z.string().nullable().optional(),
        indexedCommit: z.string().nullable().optional(),
        indexedAt: z.string().nullable().optional(),
        upToDate: z.boolean().optional(),
        pending: z.object({ indexBehindHead: z.boolean(), uncommittedChanges: z.number().nullable() }).optional(),
        reindex: taskShape.optional().describe('the same as task, kept for older clients (state idle when none ran)'),
        counts: z.object({ files: z.number(), chunks: z.number(), chunksStored: z.number(), skippedFiles: z.number() }).optional(),
        model: z.object({ id: z.string(), dim: z.number() }).nullable().optional(),
        configuredModel: z.string().nullable().optional(),
        queryCache: z.object({ entries: z.number(), hits: z.number(), misses: z.number() }).optional(),
        sizeOnDisk: z.number().optional(),
        error: z.string().optional().describe('why the index could not be read'),
      },
    },
    typed('index_status', (args) =>
      guarded(log, async () => {
        if (args.task_id) {
          const task = toTaskView(findTask(sessions, args.task_id).task);
          return answer({ task }, `${task.root}: ${describeTask(task)}`);
        }
        const report = toReport(await (await sessions.get(args.root)).status());
        return answer(report, describe(report));
      }),
    ),
  );
}

type Report = ReturnType<typeof toReport>;

function toReport(s: SessionStatus) {
  const st = s.status;
  const reindex = toTaskView(s.task ?? s.reindex);
  return {
    task: s.task ? reindex : null,
    root: st?.root ?? '',
    /** A folder outside git, indexed as a knowledge base: no branch, HEAD or uncommitted changes; its files as they are. */
    plainFolder: st?.plainFolder ?? false,
    branch: s.head.branch,
    head: s.head.commit,
    indexedCommit: st?.indexed?.commit ?? null,
    indexedAt: st?.indexed?.indexedAt ?? null,
    upToDate: st?.upToDate ?? false,
    pending: { indexBehindHead: !(st?.upToDate ?? false), uncommittedChanges: s.uncommittedChanges },
    reindex,
    counts: {
      files: st?.files ?? 0,
      chunks: st?.chunks ?? 0,
      chunksStored: st?.chunksStored ?? 0,
      skippedFiles: Object.values(st?.skipped ?? {}).reduce((n, entry) => n + entry.count, 0),
    },
    model: st?.model ?? null,
    configuredModel: st?.configuredModel ?? null,
    queryCache: s.queryCache,
    sizeOnDisk: st?.sizeOnDisk ?? 0,
    ...(s.statusError ? { error: s.statusError } : {}),
  };
}

function describe(r: Report): string {
  const short = (sha: string | null) => (sha ? sha.slice(0, 8) : 'none');
  const counts = `${r.counts.files} files, ${r.counts.chunks} chunks (${r.counts.chunksStored} stored), ${r.counts.skippedFiles} files skipped; model ${r.model ? `${r.model.id} (${r.model.dim} dims)` : 'none yet'}`;
  const lines = r.plainFolder
    ? [`plain folder ${r.root} (no git: searched as its files are now); index ${r.upToDate ? 'ready' : 'not made yet; index_codebase makes it'}`, counts]
    : [
        `${r.branch ?? 'detached HEAD'} @ ${short(r.head)}; index ${r.upToDate ? 'up to date' : `behind (built for ${short(r.indexedCommit)}); the next search updates it`}`,
        counts,
        `uncommitted changes: ${r.pending.uncommittedChanges ?? 'unknown'} (searched as they are on disk)`,
      ];
  lines.push(
    `index task: ${describeTask(r.reindex)}`,
  );
  if (r.error) lines.push(`error: ${r.error}`);
  return lines.join('\n');
}
