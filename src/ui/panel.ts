import { randomBytes } from 'node:crypto';
import { apiRoutes } from './api.js';
import { startHttpServer } from './http-server.js';
import { iconRoute, pageRoute } from './page.js';
import type { Config } from '../workspace/types.js';
import type { RepoSession } from '../workspace/live.js';

export interface PanelOptions {
  /** The session the panel shows and drives: a surface that has one (a server) shares its index tasks this way. */
  session: RepoSession;
  /** The folder and settings the session was opened with (the doctor checks the same repository). */
  cwd: string;
  flags: Partial<Config>;
  /** 0: any free port. */
  port: number;
  log: (message: string) => void;
}

export interface Panel {
  /** The address to open: it carries the token, which the page then sends with every request. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** Serves the index panel of `session` on 127.0.0.1, behind a token made for this panel alone. */
export async function startPanel(opts: PanelOptions): Promise<Panel> {
  // A one-time secret: another local user or a web page cannot guess it, and it dies with the panel.
  const token = randomBytes(24).toString('base64url');
  const server = await startHttpServer({
    port: opts.port,
    token,
    routes: [pageRoute(), iconRoute(), ...apiRoutes({ session: opts.session, cwd: opts.cwd, flags: opts.flags })],
    onError: (e) => opts.log(`ocrag ui: ${(e as Error)?.stack ?? String(e)}`),
  });
  return { url: `http://127.0.0.1:${server.port}/?token=${token}`, port: server.port, token, close: () => server.close() };
}
