import { HttpError, type Route } from './http-server.js';
import type { Config } from '../workspace/types.js';
import { doctor } from '../workspace/machine.js';
import { type IndexTaskKind, idle, type RepoSession } from '../workspace/live.js';

/** Results a panel search shows by default, and at most: a page of code, not a dump of the index. */
const DEFAULT_K = 10;
const MAX_K = 50;
/** Files the sources view lists; the rest is counted, as `ocrag list GLOB` shows them all. */
const MAX_LISTED_FILES = 500;

export interface ApiOptions {
  session: RepoSession;
  /** The folder and settings the session was opened with, for the doctor's checks of the same repository. */
  cwd: string;
  flags: Partial<Config>;
}

/**
 * The panel's API: what it shows of the repository and what its buttons do, each answer the data the CLI's
 * `--json` gives for the same question. Reads are GET; starting and stopping an index run are POST. Index runs
 * are the session's tasks, the ones MCP's tools start and follow too, so every surface sees the same task.
 */
export function apiRoutes({ session, cwd, flags }: ApiOptions): Route[] {
  const start = (kind: IndexTaskKind) => async () => ({ json: await session.startTask(kind) });
  return [
    { method: 'GET', path: '/api/state', handle: async () => ({ json: await repositoryState(session) }) },
    { method: 'GET', path: '/api/task', handle: async ({ query }) => ({ json: taskOf(session, query.get('id') ?? undefined) }) },
    {
      method: 'GET',
      path: '/api/events',
      // The task as it is now, then every new snapshot of every task: the live progress bar.
      handle: async () => ({ events: (send) => (send(taskOf(session, undefined)), session.tasks.subscribe(send)) }),
    },
    { method: 'POST', path: '/api/index', handle: start('incremental') },
    { method: 'POST', path: '/api/rebuild', handle: start('full') },
    {
      method: 'POST',
      path: '/api/cancel',
      handle: async ({ body }) => {
        const id = body.id === undefined || body.id === null ? undefined : body.id;
        if (id !== undefined && typeof id !== 'string') throw new HttpError(400, 'id must be a task id (a string)');
        return { json: { cancelled: session.tasks.cancel(id), task: taskOf(session, id) } };
      },
    },
    {
      method: 'GET',
      path: '/api/search',
      handle: async ({ query }) => {
        const q = (query.get('q') ?? '').trim();
        if (!q) throw new HttpError(400, 'type something to search for');
        const k = kOf(query.get('k'));
        const started = performance.now();
        // The panel numbers each line from startLine: it shows whole chunks, a person scrolls rather than pays.
        const { results, notice } = await session.search(q, { k, whole: true });
        return { json: { query: q, latencyMs: Math.round(performance.now() - started), notice, results } };
      },
    },
    {
      method: 'GET',
      path: '/api/sources',
      handle: async () => {
        // Never indexed: an error that says so, rather than a first index run because the page was opened.
        const files = await session.files();
        return { json: { sources: await session.listSources(), totalFiles: files.length, files: files.slice(0, MAX_LISTED_FILES) } };
      },
    },
    { method: 'GET', path: '/api/doctor', handle: async () => ({ json: await doctor(cwd, flags) }) },
  ];
}

/** Repository, branch, indexed commit against HEAD, uncommitted changes, and the index run: the panel's header. */
async function repositoryState(session: RepoSession) {
  const s = await session.status();
  return {
    root: s.status?.root ?? (await session.root()),
    /** A folder outside git: no branch or HEAD; every search scans its files as they are. */
    plainFolder: s.status?.plainFolder ?? false,
    branch: s.head.branch,
    head: s.head.commit,
    indexedCommit: s.status?.indexed?.commit ?? null,
    indexedAt: s.status?.indexed?.indexedAt ?? null,
    upToDate: s.status?.upToDate ?? false,
    uncommittedChanges: s.uncommittedChanges,
    files: s.status?.files ?? 0,
    chunks: s.status?.chunks ?? 0,
    model: s.status?.model ?? null,
    error: s.statusError,
    task: s.task ?? noTask(),
  };
}

/** The task with this id (else the running or last one); the idle snapshot, with no id, when none ran. */
function taskOf(session: RepoSession, id: string | undefined) {
  const task = session.tasks.status(id);
  if (!task && id !== undefined) throw new HttpError(404, `no index task "${id}": it never ran in this panel's session, or ended long ago`);
  return task ?? noTask();
}

function noTask() {
  return { id: null, root: null, ...idle() };
}

function kOf(value: string | null): number {
  if (value === null || value === '') return DEFAULT_K;
  const k = Number(value);
  if (!Number.isInteger(k) || k < 1 || k > MAX_K) throw new HttpError(400, `k must be a whole number from 1 to ${MAX_K}, got "${value}"`);
  return k;
}
