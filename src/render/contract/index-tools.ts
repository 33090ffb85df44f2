import type { ArgSpec, Wording } from './args.js';
import { ROOT_ARG } from './search-tools.js';

const TASK_ID = { type: 'string', trim: true, pattern: { source: '^[0-9a-f]{12}$', message: 'a task id is 12 hex digits, as index_codebase returns it' } } as const;

const FULL = { type: 'boolean', default: false, description: 'drop the index and embed everything again (slow); default: only what changed' } as const satisfies ArgSpec;

export const INDEX_STATUS = {
  title: 'Index status',
  surfaces: ['mcp', 'opencode'],
  description: (w: Wording) =>
    `Report the state of the code index of this repository: branch and HEAD, the commit the index was built for and whether it is up to date, pending work (index behind HEAD, uncommitted changes), ${w.has('index_codebase') ? 'the current or last index task (state, phase, percent, files, chunks, chunks/s, errors, warnings), ' : ''}file and chunk counts, the files skipped and why, and the embedding model.
${w.has('index_codebase') ? `With task_id (from ${w.tool('index_codebase')}) it reports only that task, cheaply: poll it to follow a run. Call it without one` : 'Call it'} when ${w.tool('search_code')} results look stale, empty or wrong.`,
  args: {
    task_id: { ...TASK_ID, only: 'mcp', description: (w: Wording) => `report only this task (${w.tool('index_codebase')} returns its id)` },
    root: ROOT_ARG,
  },
} as const;

export const INDEX_CODEBASE = {
  title: 'Index the codebase (background task)',
  surfaces: ['mcp'],
  description: (w: Wording) => `Start indexing the repository in the background and return at once with a task id; follow it with ${w.tool('index_status')} {task_id}, stop it with ${w.tool('index_cancel')} {task_id}. One run at a time per repository: while one runs, you get its id back.
Rarely needed: ${w.tool('search_code')} updates the index itself when HEAD moved. Use it after a large change you want indexed ahead of time, or with full=true to rebuild from scratch when ${w.tool('index_status')} or an error says the index is damaged or was built with another model (a full rebuild makes search unavailable until it finishes).`,
  args: { full: FULL, root: ROOT_ARG },
} as const;

export const REINDEX = {
  title: 'Reindex in the background',
  surfaces: ['mcp'],
  description: (w: Wording) => `The same as ${w.tool('index_codebase')}, for older clients: start updating the code index in the background and return at once; follow progress with ${w.tool('index_status')}, stop it with ${w.tool('index_cancel')}.`,
  args: { full: FULL, root: ROOT_ARG },
} as const;

export const INDEX_CANCEL = {
  title: 'Cancel an index task',
  surfaces: ['mcp'],
  description: `Stop an index task (by task_id; without one, the running task). Work already stored is kept and the previous index stays searchable; the next search or index run finishes the job incrementally.`,
  args: {
    task_id: { ...TASK_ID, description: (w: Wording) => `the task to stop (${w.tool('index_codebase')} returns its id); default: the running one` },
    root: ROOT_ARG,
  },
} as const;

export const ADD_SOURCE = {
  title: 'Add a source',
  surfaces: ['mcp', 'opencode'],
  description: (w: Wording) =>
    `Add a folder or file outside the repository's tree (design docs, a spec PDF, CSV exports, a sibling checkout) as a source: ${w.tool('search_code')} then searches it beside the code, naming its results <source>:<path>. Only folders the user allowed (sourceRoots in .ocrag/config.json) may be added; anything else is refused with the setting that would allow it.`,
  args: {
    path: { type: 'string', min: 1, max: 1000, required: true, description: 'folder or file; relative paths are relative to the repository root' },
    name: { type: 'string', min: 1, max: 200, description: 'what results call it (default: the folder name)' },
    root: ROOT_ARG,
  },
} as const;

export const REMOVE_SOURCE = {
  title: 'Remove a source',
  surfaces: ['mcp', 'opencode'],
  description: (w: Wording) => `Remove a source added with ${w.tool('add_source')} (by name or path): ${w.tool('search_code')} stops returning it.`,
  args: {
    source: { type: 'string', min: 1, max: 1000, required: true, description: 'the source name, or the path it was added with' },
    root: ROOT_ARG,
  },
} as const;

export const LIST_SOURCES = {
  title: 'List sources',
  surfaces: ['mcp', 'opencode'],
  description: (w: Wording) => `List the sources ${w.tool('search_code')} searches beside the repository's tree: name, folder, when added.`,
  args: { root: ROOT_ARG },
} as const;

export const SET_ROOT = {
  title: 'Switch repository',
  surfaces: ['mcp'],
  description: (w: Wording) => `Switch the repository this server answers for: every later call without a root argument (${w.tool('search_code')}, ${w.tool('find_symbol')}, ${w.tool('index_codebase')}, ${w.tool('index_status')}, …) is answered from that repository's own index, never mixed with another's. The repository (as path, or as root, the name every other tool gives it) is a git work tree (any folder inside one) or a folder indexed by ocrag; relative paths start where the server started.
Each repository keeps its own index and tasks: a task id of the one before still answers ${w.tool('index_status')}, naming its root. Any tool also takes root to ask another repository once without switching.`,
  args: {
    path: { type: 'string', trim: true, min: 1, max: 1000, description: 'the repository (or a folder inside it) to answer for from now on' },
    root: { type: 'string', trim: true, min: 1, max: 1000, description: 'the same as path, by the name the other tools give it; give one of the two' },
  },
} as const;
