import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { agentGuidance } from '../render/agent-guidance.js';
import { VERSION } from '../util/version.js';
import { registerFindSymbol } from './tools/find-symbol.js';
import { registerIndexStatus } from './tools/index-status.js';
import { registerReindex } from './tools/reindex.js';
import { registerRelated } from './tools/related.js';
import { registerSearchCode } from './tools/search-code.js';
import { registerSetRoot } from './tools/set-root.js';
import { registerSources } from './tools/sources.js';
import type { Config, PlainFolderUse } from '../workspace/types.js';
import { RepoSessions } from '../workspace/live.js';

/** How long shutdown waits for a background reindex to stop at its next batch; killing it mid-way is safe too. */
const SHUTDOWN_GRACE_MS = 5000;

export function createServer(sessions: RepoSessions, log: (message: string) => void): McpServer {
  const server = new McpServer({ name: 'ocrag', title: 'ocrag code search', version: VERSION }, { instructions: agentGuidance('mcp') });
  registerSearchCode(server, sessions, log);
  registerFindSymbol(server, sessions, log);
  registerRelated(server, sessions, log);
  registerIndexStatus(server, sessions, log);
  registerReindex(server, sessions, log);
  registerSources(server, sessions, log);
  registerSetRoot(server, sessions, log);
  return server;
}

export interface ServeOptions {
  /** The repository served is the one containing this folder. */
  cwd: string;
  flags?: Partial<Config>;
  /** Outside git: `create` when the user named the folder (`--repo`), so index_codebase may make it a knowledge base. */
  plain?: PlainFolderUse;
}

/** Serves MCP on stdin/stdout until the client closes the pipe or a signal arrives. */
export async function serveStdio(opts: ServeOptions): Promise<void> {
  const log = (message: string) => process.stderr.write(`${message}\n`);
  // stdout carries the protocol: a stray console.log from any library would corrupt it.
  console.log = console.info = console.debug = console.warn = console.error;
  // One tool's bug must not take the server (and every later question) down with it.
  process.on('unhandledRejection', (e) => log(`ocrag mcp: unhandled rejection: ${(e as Error)?.stack ?? String(e)}`));
  process.on('uncaughtException', (e) => log(`ocrag mcp: uncaught exception: ${e.stack ?? String(e)}`));

  // warm: a one-shot `ocrag search` of a repository served asks this server rather than load everything again.
  const sessions = new RepoSessions({ cwd: opts.cwd, flags: opts.flags, log, plain: opts.plain, warm: true });
  const server = createServer(sessions, log);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
    process.stdin.once('end', () => void server.close());
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.close());
  });
  await server.connect(new StdioServerTransport());
  sessions.preload();
  await closed;
  await Promise.race([sessions.close(), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
}
