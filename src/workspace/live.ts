// The long-lived front door: a server (MCP, the panel) keeps one workspace per repository open across calls, with
// its model loaded, a live view that follows edits and checkouts, and index runs as tasks every surface can follow.
export { RepoSession } from '../session/session.js';
export type { SessionOptions } from '../session/session-options.js';
export { SearchNotices } from '../session/search-notices.js';
export { RepoSessions } from '../session/repo-sessions.js';
export type { IndexTaskKind, IndexTaskSnapshot, IndexTasks, TaskStart } from '../session/index-tasks.js';
export { idle, type ReindexSnapshot } from '../session/reindex-job.js';
export type { SessionStatus } from '../session/session-status.js';
