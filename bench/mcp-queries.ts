// The search_code queries of bench/mcp.ts and bench/mcp-ab.ts (tokio's subjects; bench/ratios.ts has bench/mcp.ts ask them of its large repository too).
export const MCP_QUERIES = [
  'spawn a blocking task on a thread pool', 'accept incoming TCP connections', 'send a value on an mpsc channel', 'timer wheel', 'JoinHandle::abort',
  'read a file to the end asynchronously', 'acquire a semaphore permit', 'configure the number of worker threads', 'graceful shutdown on ctrl-c', 'broadcast channel lagging receiver',
  'AsyncRead', 'cooperative scheduling budget', 'parse command line arguments', 'watch channel changed notification', 'unix domain socket',
  'oneshot channel sender dropped', 'task local storage', 'interval tick missed behavior', 'signal handler registration', 'LocalSet spawn_local',
  'buffered writer flush', 'io driver readiness', 'mutex lock owned guard', 'sleep until deadline', 'Notify notify_waiters',
];

/**
 * Asked once before the timed rounds, to load the server's indexes and fill its caches: none of MCP_QUERIES, so the
 * first pass over those is of queries the server has not seen (a cache of answers or query vectors cannot help it).
 */
export const WARM_UP_QUERIES = [
  'runtime builder enable all drivers', 'split a stream into read and write halves', 'yield now to the scheduler', 'udp socket send to an address',
  'child process wait for exit', 'barrier wait for all tasks', 'rwlock write guard downgrade', 'file metadata permissions',
];
