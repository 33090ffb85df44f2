import path from 'node:path';
import { HttpError, type Route } from './http-server.js';
import { indexedRoots } from '../workspace/machine.js';
import { realPathOr } from '../util/linked-path.js';
import type { RepoSession, RepoSessions } from '../workspace/live.js';

/** The query parameter an API call names its root in; without it, the call is for the root the panel started in. */
export const ROOT_PARAM = 'root';

/** A root the panel offers: the one it started in, then those this machine indexed. */
export interface RootChoice {
  root: string;
  /** The folder's name, as the switcher shows it. */
  name: string;
  /** Null for the starting root when no index run there was recorded yet. */
  kind: 'repository' | 'folder' | null;
  indexedAt: string | null;
  /** The root the panel started in: the one a call without `root` is for. */
  home: boolean;
}

/**
 * The roots a panel serves and the session of each. A call may name only a root of the list as it is at that
 * moment, matched exactly: a web page that got hold of the token still cannot make the panel open another path.
 * Each named root gets its own session (its index, live view and tasks), opened on first use.
 */
export class PanelRoots {
  private readonly homeRoot: string;

  constructor(private readonly sessions: RepoSessions, private readonly home: RepoSession, homeRoot: string) {
    this.homeRoot = realPathOr(homeRoot);
  }

  list(): RootChoice[] {
    const known = indexedRoots();
    const ownEntry = known.find((k) => k.root === this.homeRoot);
    const home: RootChoice = { root: this.homeRoot, name: path.basename(this.homeRoot), kind: ownEntry?.kind ?? null, indexedAt: ownEntry?.indexedAt ?? null, home: true };
    return [home, ...known.filter((k) => k !== ownEntry).map((k) => ({ root: k.root, name: path.basename(k.root), kind: k.kind, indexedAt: k.indexedAt, home: false }))];
  }

  /** The session a call is for, with the folder its doctor checks: `root` of the query, else the starting one. */
  async sessionOf(query: URLSearchParams): Promise<{ session: RepoSession; root: string | null }> {
    const asked = query.get(ROOT_PARAM);
    if (asked === null || asked === '' || asked === this.homeRoot) return { session: this.home, root: null };
    const choice = this.list().find((c) => c.root === asked);
    if (!choice) throw new HttpError(400, `${JSON.stringify(asked.slice(0, 300))} is not a root this panel lists: it serves only the repositories and folders indexed on this machine (GET /api/roots)`);
    return { session: await this.sessions.get(choice.root), root: choice.root };
  }

  route(): Route {
    return { method: 'GET', path: '/api/roots', handle: async () => ({ json: { roots: this.list() } }) };
  }
}
