import type { Config } from '../config/config.js';
import type { PlainFolderUse } from '../index/index-context.js';
import { mcpWaitMs } from '../config/environment.js';

/** How long a search waits for the index to catch up with HEAD before answering "ask again in a moment": well within the tool-call timeouts of common clients (Codex: 60 s). OCRAG_MCP_WAIT_MS overrides it. */
export const FOREGROUND_BUDGET_MS = mcpWaitMs() ?? 20_000;

export interface SessionOptions {
  /** The repository is the one containing this folder. */
  cwd: string;
  flags?: Partial<Config>;
  /** One-line messages for the server's stderr. */
  log?: (message: string) => void;
  /**
   * Outside git, which folder is served (index/context.ts): `existing` only one indexed before, `create` also `cwd`
   * itself, made a knowledge base by the first index run. Only a folder the user named (`ocrag mcp --repo`) is
   * created: an agent's server started in a home folder must not index it on its first search.
   */
  plain?: PlainFolderUse;
  /** Answer one-shot `ocrag search` runs of the repository too, over a socket in its index folder (warm/). */
  warm?: boolean;
}
