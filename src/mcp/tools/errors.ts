import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { OcragError, type Remedy } from '../../util/errors.js';
import { GitError } from '../../workspace/types.js';

/** The fix, as the call an agent makes through this server. */
function callFor(remedy: Remedy): string {
  return remedy.full ? ' (through this server: call index_codebase with full=true)' : ' (through this server: call index_codebase)';
}

/** A one-line message an agent can act on; unexpected errors are also logged with their stack. */
export function describeError(e: unknown, log: (message: string) => void): string {
  if (e instanceof OcragError) {
    // Outside a repository or an indexed folder this server has nothing to index: only the user can name one.
    if (e.kind === 'no-workspace') return `${e.message} Start the MCP server inside a git work tree or a folder indexed by ocrag, or pass --repo <dir> (a plain folder named so becomes a knowledge base on index_codebase).`;
    return `${e.message}${e.remedy ? callFor(e.remedy) : ''}`;
  }
  if (e instanceof GitError) return `git: ${e.message}`;
  const err = e as Error;
  log(`ocrag mcp: unexpected error: ${err?.stack ?? String(e)}`);
  return `unexpected error: ${err?.message ?? String(e)}`;
}

/** Runs a tool body; any failure becomes an MCP tool error (isError) instead of a protocol error or a crash. */
export async function guarded(log: (message: string) => void, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (e) {
    return { isError: true, content: [{ type: 'text', text: describeError(e, log) }] };
  }
}
