// ocrag as a library: `import { openWorkspace } from 'ocrag'`. The same front door the CLI, the MCP server and the
// panel go through; README "Use it from code" shows it, and test/library.test.ts runs that example.
import { Workspace, type OpenOptions } from './workspace.js';

export { Workspace, DEFAULT_K, type AnswerTo, type OpenOptions, type Query, type Reporter, type SearchQuery } from './workspace.js';
export type { WorkspaceWatch } from './watch.js';
export { ModelPool } from './models.js';
export * from './types.js';
export { OcragError, type ErrorKind, type Remedy } from '../util/errors.js';

/**
 * Opens the workspace at `path`: the git work tree (or worktree) containing it, else a plain folder indexed before
 * (with `folder: 'create'`, the folder itself). Close it when done: it holds the model and the index open.
 */
export function openWorkspace(path: string, opts: OpenOptions = {}): Promise<Workspace> {
  return Workspace.open(path, opts);
}
