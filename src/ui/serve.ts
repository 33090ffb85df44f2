import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import type { Config } from '../config/config.js';
import { RepoSession } from '../session/session.js';
import { apiRoutes } from './api.js';
import { startHttpServer } from './http-server.js';
import { pageRoute } from './page.js';

/** How long shutdown waits for a running index run to stop at its next batch; killing it mid-way is safe too. */
const SHUTDOWN_GRACE_MS = 5000;

export interface UiOptions {
  cwd: string;
  flags: Partial<Config>;
  /** 0: any free port. */
  port: number;
  /** Open the address in the user's browser. */
  open: boolean;
  /** Told the address once the server listens. */
  onListening: (where: { url: string; port: number; token: string }) => void;
  log: (message: string) => void;
}

/** Serves the index panel for the repository containing `cwd` until SIGINT or SIGTERM. */
export async function serveUi(opts: UiOptions): Promise<void> {
  // A one-time secret: another local user or a web page cannot guess it, and it dies with the server.
  const token = randomBytes(24).toString('base64url');
  const session = new RepoSession({ cwd: opts.cwd, flags: opts.flags, log: opts.log });
  await session.context();
  const server = await startHttpServer({
    port: opts.port,
    token,
    routes: [pageRoute(), ...apiRoutes({ session, cwd: opts.cwd, flags: opts.flags })],
    onError: (e) => opts.log(`ocrag ui: ${(e as Error)?.stack ?? String(e)}`),
  });
  const url = `http://127.0.0.1:${server.port}/?token=${token}`;
  opts.onListening({ url, port: server.port, token });
  if (opts.open) openBrowser(url, opts.log);
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
  await server.close();
  await Promise.race([session.close(), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
}

/** The platform's own opener, without a shell; when there is none the printed address is enough. */
function openBrowser(url: string, log: (message: string) => void): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]];
  const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
  child.on('error', () => log(`ocrag ui: could not open a browser (${cmd}); open the address above yourself`));
  child.unref();
}
