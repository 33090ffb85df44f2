import { HttpError, type Route } from './http-server.js';
import { DEFAULT_MIN_MATCH, type Config } from '../workspace/types.js';
import { emptyAnswerNote, PANEL_NEXT_STEPS } from '../render/no-match.js';
import { doctor, lastIndexRun } from '../workspace/machine.js';
import { OcragError } from '../util/errors.js';
import { type IndexTaskKind, idle, type RepoSession } from '../workspace/live.js';
import { absolutePathOf, editorLink } from './editor-link.js';

/** Results a panel search shows by default, and at most: a page of code, not a dump of the index. */
const DEFAULT_K = 10;
const MAX_K = 50;
/** Files the sources view lists; the rest is counted, as `ocrag list GLOB` shows them all. */
const MAX_LISTED_FILES = 500;
/** Longer than any glob or language name a person types: a bound on what a search is asked to parse. */
const MAX_FILTER_CHARS = 500;

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
        const filters = await filtersOf(session, query);
        const started = performance.now();
        // The panel numbers each line from startLine: it shows whole chunks, a person scrolls rather than pays.
        // The relevance rule of every surface (search/relevance.ts); `all=1` (the panel's "show the closest anyway")
        // answers with the closest chunks whatever they are.
        const minMatch = query.get('all') === '1' ? 0 : DEFAULT_MIN_MATCH;
        const { results, notice } = await session.search(q, { k, whole: true, pathGlob: filters.pathGlob, language: filters.language, minMatch });
        const [root, sources, { editorLink: template }] = await Promise.all([session.root(), session.listSources(), session.settings()]);
        const linked = results.map((r) => {
          const file = absolutePathOf(r, root, sources);
          const source = r.source ?? sources.find((s) => r.path.startsWith(`${s.name}:`))?.name;
          return { ...r, ...(source ? { source } : {}), editorUrl: file === null ? null : editorLink(template, file, r.startLine) };
        });
        const noMatch = (results.length === 0 ? emptyAnswerNote({ query: q, minMatch, language: filters.language, narrowed: filters.pathGlob !== undefined }, PANEL_NEXT_STEPS) : null) ?? undefined;
        return { json: { query: q, k, filters: filters.shown, latencyMs: Math.round(performance.now() - started), notice, noMatch, results: linked } };
      },
    },
    {
      method: 'GET',
      path: '/api/sources',
      handle: async () => {
        const sources = await session.listSources();
        try {
          const files = await session.files();
          return { json: { sources, totalFiles: files.length, files: files.slice(0, MAX_LISTED_FILES), filesError: null } };
        } catch (e) {
          // Never indexed (or an index that needs attention) is the repository's state, said in the answer, not a
          // failed request; and never a first index run because the page was opened.
          if (!(e instanceof OcragError) || e.kind !== 'index') throw e;
          return { json: { sources, totalFiles: 0, files: [], filesError: e.message } };
        }
      },
    },
    { method: 'GET', path: '/api/doctor', handle: async () => ({ json: await doctor(cwd, flags) }) },
  ];
}

/** Repository, branch, indexed commit against HEAD, uncommitted changes, and the index run: the panel's header. */
async function repositoryState(session: RepoSession) {
  const s = await session.status();
  const root = s.status?.root ?? (await session.root());
  return {
    root,
    /** A folder outside git: no branch or HEAD; every search scans its files as they are. */
    plainFolder: s.status?.plainFolder ?? false,
    branch: s.head.branch,
    head: s.head.commit,
    indexedCommit: s.status?.indexed?.commit ?? null,
    /** When HEAD's index was made (ISO 8601), whichever process made it; a plain folder's, when its last index run ended. */
    indexedAt: s.status?.indexed?.indexedAt ?? (s.status?.plainFolder ? lastIndexRun(root) : null),
    upToDate: s.status?.upToDate ?? false,
    uncommittedChanges: s.uncommittedChanges,
    files: s.status?.files ?? 0,
    chunks: s.status?.chunks ?? 0,
    model: s.status?.model ?? null,
    /** Files left out, by reason: how many, and a few of them (as `ocrag status` shows them). */
    skipped: s.status?.skipped ?? {},
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

/**
 * The search's filters from the query string: `path` (a glob), `language` (as agents name it: ts, python, go) and
 * `source` (an added source's name, its files only: `path` then matches inside it, as `ocrag search --source`).
 */
async function filtersOf(session: RepoSession, query: URLSearchParams) {
  const [path, language, source] = ['path', 'language', 'source'].map((name) => {
    const value = (query.get(name) ?? '').trim();
    if (value.length > MAX_FILTER_CHARS) throw new HttpError(400, `${name} is longer than ${MAX_FILTER_CHARS} characters`);
    return value || undefined;
  });
  if (source !== undefined) {
    const names = (await session.listSources()).map((s) => s.name);
    if (!names.includes(source)) throw new HttpError(400, `no source named "${source}": ${names.length ? `the sources are ${names.join(', ')}` : 'none was added (ocrag add PATH adds one)'}`);
  }
  return { pathGlob: source !== undefined ? `${source}:${path ?? '**'}` : path, language, shown: { path: path ?? null, language: language ?? null, source: source ?? null } };
}

function kOf(value: string | null): number {
  if (value === null || value === '') return DEFAULT_K;
  const k = Number(value);
  if (!Number.isInteger(k) || k < 1 || k > MAX_K) throw new HttpError(400, `k must be a whole number from 1 to ${MAX_K}, got "${value}"`);
  return k;
}
