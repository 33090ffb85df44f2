import type { Config } from '../config/config.js';
import type { PlainFolderUse } from '../index/index-context.js';

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
