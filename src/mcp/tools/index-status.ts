import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RepoSession, SessionStatus } from '../../session/session.js';
import { guarded } from './errors.js';
import { answer } from './shared.js';

const DESCRIPTION = `Report the state of the code index of this repository: branch and HEAD, the commit the index was built for and whether it is up to date, pending work (index behind HEAD, uncommitted changes), the background reindex (state, percent, files, chunks, errors), file and chunk counts, and the embedding model.
Call it to follow a reindex you started, or when search_code results look stale, empty or wrong.`;

const reindexShape = z.object({
  id: z.string().nullable().describe('the task id (index_codebase returns it); null when no run was started'),
  root: z.string().nullable().describe('the repository the task indexes'),
  state: z.enum(['idle', 'running', 'cancelling', 'done', 'failed', 'cancelled']),
  kind: z.enum(['incremental', 'full']).nullable(),
  phase: z.enum(['listing', 'reading', 'chunking', 'embedding', 'writing', 'search-index']).nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  percent: z.number(),
  files: z.object({ done: z.number(), total: z.number() }),
  chunks: z.number(),
  chunksPerSecond: z.number(),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
});

export function registerIndexStatus(server: McpServer, session: RepoSession, log: (message: string) => void): void {
  server.registerTool(
    'index_status',
    {
      title: 'Index status',
      description: DESCRIPTION,
      inputSchema: {},
      outputSchema: {
        root: z.string(),
        branch: z.string().nullable(),
        head: z.string().nullable(),
        indexedCommit: z.string().nullable(),
        indexedAt: z.string().nullable(),
        upToDate: z.boolean(),
        pending: z.object({ indexBehindHead: z.boolean(), uncommittedChanges: z.number().nullable() }),
        reindex: reindexShape,
        counts: z.object({ files: z.number(), chunks: z.number(), chunksStored: z.number(), skippedFiles: z.number() }),
        model: z.object({ id: z.string(), dim: z.number() }).nullable(),
        configuredModel: z.string().nullable(),
        queryCache: z.object({ entries: z.number(), hits: z.number(), misses: z.number() }),
        sizeOnDisk: z.number(),
        error: z.string().optional().describe('why the index could not be read'),
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    () =>
      guarded(log, async () => {
        const report = toReport(await session.status());
        return answer(report, describe(report));
      }),
  );
}

type Report = ReturnType<typeof toReport>;

function toReport(s: SessionStatus) {
  const st = s.status;
  const { summary: _summary, ...job } = s.task ?? s.reindex;
  void _summary;
  const reindex = { id: null, root: null, ...job };
  return {
    root: st?.root ?? '',
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
  const lines = [
    `${r.branch ?? 'detached HEAD'} @ ${short(r.head)}; index ${r.upToDate ? 'up to date' : `behind (built for ${short(r.indexedCommit)}); the next search updates it`}`,
    `${r.counts.files} files, ${r.counts.chunks} chunks (${r.counts.chunksStored} stored), ${r.counts.skippedFiles} files skipped; model ${r.model ? `${r.model.id} (${r.model.dim} dims)` : 'none yet'}`,
    `uncommitted changes: ${r.pending.uncommittedChanges ?? 'unknown'} (searched as they are on disk)`,
    `reindex: ${describeReindex(r.reindex)}`,
  ];
  if (r.error) lines.push(`error: ${r.error}`);
  return lines.join('\n');
}

function describeReindex(j: Report['reindex']): string {
  if (j.state === 'idle') return 'none started';
  const counts = `${j.files.done}/${j.files.total} files, ${j.chunks} chunks`;
  if (j.state === 'running' || j.state === 'cancelling') return `${j.state} (${j.kind}) ${j.percent}%: ${counts}, ${j.chunksPerSecond} chunks/s`;
  return `${j.state} (${j.kind}) at ${j.finishedAt}: ${counts}${j.errors.length ? `; errors: ${j.errors.join('; ')}` : ''}`;
}
