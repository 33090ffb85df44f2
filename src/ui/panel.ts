import { randomBytes } from 'node:crypto';
import { apiRoutes } from './api.js';
import { startHttpServer, type Route } from './http-server.js';
import { iconRoute, pageRoute } from './page.js';
import { PanelRoots } from './roots.js';
import type { Config } from '../workspace/types.js';
import type { RepoSession, RepoSessions } from '../workspace/live.js';

export interface PanelOptions {
  /**
   * The sessions the panel shows and drives: a surface that has them (a server) shares its index tasks this way.
   * The current one when the panel starts is its own (calls that name no root); others open as the page switches.
   */
  sessions: RepoSessions;
  /** The folder and settings the sessions were opened with (the doctor checks the same repository). */
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

/** Serves the index panel of `sessions` on 127.0.0.1, behind a token made for this panel alone. */
export async function startPanel(opts: PanelOptions): Promise<Panel> {
  // A one-time secret: another local user or a web page cannot guess it, and it dies with the panel.
  const token = randomBytes(24).toString('base64url');
  const home = await opts.sessions.get();
  const roots = new PanelRoots(opts.sessions, home, await home.root());
  const server = await startHttpServer({
    port: opts.port,
    token,
    routes: [pageRoute(), iconRoute(), roots.route(), ...rootedRoutes(roots, home, opts)],
    onError: (e) => opts.log(`ocrag ui: ${(e as Error)?.stack ?? String(e)}`),
  });
  return { url: `http://127.0.0.1:${server.port}/?token=${token}`, port: server.port, token, close: () => server.close() };
}

/** The API's routes, each answered by the session of the root the call names (routes made once per session). */
function rootedRoutes(roots: PanelRoots, home: RepoSession, opts: PanelOptions): Route[] {
  const made = new Map<RepoSession, Route[]>([[home, apiRoutes({ session: home, cwd: opts.cwd, flags: opts.flags })]]);
  const routesOf = (session: RepoSession, root: string | null) => {
    let routes = made.get(session);
    if (!routes) made.set(session, (routes = apiRoutes({ session, cwd: root ?? opts.cwd, flags: opts.flags })));
    return routes;
  };
  return made.get(home)!.map((route) => ({
    ...route,
    handle: async (req) => {
      const { session, root } = await roots.sessionOf(req.query);
      return routesOf(session, root).find((r) => r.path === route.path && r.method === route.method)!.handle(req);
    },
  }));
}
