import fs from 'node:fs';
import path from 'node:path';
import { openRepo } from '../git/repo.js';
import { assertOwnIndexFolder } from '../store/index-folder.js';
import { folderLayout, indexLayout } from '../store/layout.js';
import { OcragError } from '../util/errors.js';
import { realPathOr } from '../util/linked-path.js';
import type { IndexTaskSnapshot } from './index-tasks.js';
import { RepoSession } from './session.js';
import type { SessionOptions } from './session-options.js';

/**
 * The repositories one server serves, each its own RepoSession (index, store, live view, tasks), never mixed: a
 * call names its repository with `root`, or goes to the current one, which `setRoot` switches. The one the
 * server started in is opened lazily, as before, so a server started outside a repository still answers.
 */
export class RepoSessions {
  private readonly sessions = new Map<string, RepoSession>();
  private currentRoot: string;
  /** Relative roots are taken from the folder the server started in. */
  private readonly base: string;
  /** The root the starting folder resolves to (null outside a repository): naming it again is the same session. */
  private readonly baseRoot: Promise<string | null>;

  constructor(private readonly options: SessionOptions) {
    this.base = path.resolve(options.cwd);
    this.baseRoot = servableRoot(this.base).catch(() => null);
    this.currentRoot = this.base;
    this.sessions.set(this.base, new RepoSession(options));
  }

  /** The folder calls without `root` are answered for. */
  get root(): string {
    return this.currentRoot;
  }

  /** The session of `root` (checked, opened on first use), or of the current root without one. */
  async get(root?: string): Promise<RepoSession> {
    if (root === undefined) return this.sessions.get(this.currentRoot)!;
    return this.sessionAt(await this.keyOf(root));
  }

  /** Makes `root` the repository calls without a root of their own are answered for. */
  async setRoot(root: string): Promise<{ root: string; session: RepoSession }> {
    const resolved = await this.keyOf(root);
    const session = this.sessionAt(resolved);
    this.currentRoot = resolved;
    return { root: resolved, session };
  }

  /** The task with this id in any repository served, with the session it belongs to. */
  task(id: string): { session: RepoSession; task: IndexTaskSnapshot } | null {
    for (const session of this.sessions.values()) {
      const task = session.tasks.status(id);
      if (task) return { session, task };
    }
    return null;
  }

  /** Roots served so far, the current one first. */
  roots(): string[] {
    return [this.currentRoot, ...[...this.sessions.keys()].filter((r) => r !== this.currentRoot)];
  }

  /** Starts warming the current repository (see RepoSession.preload). */
  preload(): void {
    this.sessions.get(this.currentRoot)!.preload();
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.close()));
  }

  private async keyOf(root: string): Promise<string> {
    const resolved = await servableRoot(path.resolve(this.base, root));
    // The starting folder again, also when it was not servable at start (a folder its first index run made one).
    return resolved === (await this.baseRoot) || resolved === realPathOr(this.base) ? this.base : resolved;
  }

  private sessionAt(root: string): RepoSession {
    let session = this.sessions.get(root);
    if (!session) {
      // Another folder than the one the user started the server for is served only with the index it has.
      session = new RepoSession({ ...this.options, cwd: root, plain: 'existing' });
      this.sessions.set(root, session);
    }
    return session;
  }
}

/**
 * The folder a session may serve for this path: the top of the git work tree holding it, or a folder with an
 * ocrag index of its own (a knowledge base outside git). Anything else is refused in one line.
 */
export async function servableRoot(dir: string): Promise<string> {
  if (!fs.existsSync(dir)) throw new OcragError(`${dir} does not exist: give the path of a git repository or of a folder indexed by ocrag`);
  if (!fs.statSync(dir).isDirectory()) throw new OcragError(`${dir} is a file, not a folder: give the path of a git repository or of a folder indexed by ocrag`);
  let repo;
  try {
    repo = await openRepo(dir);
  } catch {
    // A folder outside git that holds an ocrag index is served as it is (its layout: .ocrag beside a would-be .git).
    if (!fs.existsSync(folderLayout(dir).dir)) throw new OcragError(`${dir} is not a git repository nor a folder indexed by ocrag: give the path of a git work tree (or run "ocrag index" there first)`);
    await assertOwnIndexFolder(folderLayout(dir));
    return fs.realpathSync(dir);
  }
  // A repository whose index folder is not ocrag's own is refused here, so set_root keeps serving the one before.
  await assertOwnIndexFolder(indexLayout(repo));
  return repo.root;
}
