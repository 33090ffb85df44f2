import { spawn } from 'node:child_process';
import { startPanel } from './panel.js';
import type { Config } from '../workspace/types.js';
import { RepoSessions } from '../workspace/live.js';
import { childEnv } from '../workspace/environment.js';

/** How long shutdown waits for a running index run to stop at its next batch; killing it mid-way is safe too. */
const SHUTDOWN_GRACE_MS = 5000;

export interface UiOptions {
  cwd: string;
  flags: Partial<Config>;
  /** 0: any free port. */
  port: number;
  /** Open the address in the user's browser. */
  open: boolean;
  /** Told the address once the panel listens. */
  onListening: (where: { url: string; port: number; token: string }) => void;
  log: (message: string) => void;
}

/** `ocrag ui`: the index panel of the repository containing `cwd` (and the others indexed here), with sessions of its own, until SIGINT or SIGTERM. */
export async function serveUi(opts: UiOptions): Promise<void> {
  // Outside git, a folder indexed before (`ocrag index` makes one): a panel started in any folder indexes nothing.
  // The other roots the page switches to (those this machine indexed) are served with the index they have, too.
  const sessions = new RepoSessions({ cwd: opts.cwd, flags: opts.flags, log: opts.log, plain: 'existing', warm: true });
  // Outside a repository, say so now rather than serve a page of errors.
  await (await sessions.get()).root();
  const panel = await startPanel({ sessions, cwd: opts.cwd, flags: opts.flags, port: opts.port, log: opts.log });
  opts.onListening({ url: panel.url, port: panel.port, token: panel.token });
  if (opts.open) openBrowser(panel.url, opts.log);
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
  await panel.close();
  await Promise.race([sessions.close(), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
}

/** The platform's own opener, without a shell; when there is none the printed address is enough. */
function openBrowser(url: string, log: (message: string) => void): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]];
  const child = spawn(cmd, args, { detached: true, stdio: 'ignore', env: childEnv() });
  child.on('error', () => log(`ocrag ui: could not open a browser (${cmd}); open the address printed above yourself`));
  child.unref();
}
