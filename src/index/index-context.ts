import type { Config } from '../config/config.js';
import type { HeadSnapshot, RepoInfo } from '../git/repo.js';
import type { WorkingChange } from '../git/status.js';
import type { IndexLayout } from '../store/layout.js';
import type { Manifest } from '../store/manifest.js';
import type { SourceSpec } from '../store/sources.js';

/**
 * Everything a command needs to know about where it runs, read once per command. A long-lived caller that
 * follows HEAD makes a new context with the new snapshot; a run keeps the context it was given.
 */
export interface IndexContext {
  readonly repo: RepoInfo;
  readonly head: HeadSnapshot;
  readonly layout: IndexLayout;
  readonly config: Config;
  /** A git work tree, or a plain folder outside git: whatever differs between the two, it answers. */
  readonly kind: WorkspaceKind;
}

/**
 * Outside any git repository, whether a command works on a plain folder: `create` takes the nearest folder indexed
 * before, else `cwd` itself (index, add); `existing` only a folder indexed before (search, list, status…).
 */
export type PlainFolderUse = 'create' | 'existing';

/** One way of doing something for each kind of workspace: `match` runs the one of the kind at hand. */
export interface ForEachKind<T> {
  git(): T;
  folder(): T;
}

/**
 * The two kinds of workspace, git work trees (kinds/git.ts) and plain folders (kinds/folder.ts): each member is
 * one thing that differs between them, so no other code asks which kind it has.
 */
export interface WorkspaceKind {
  /** What messages call the workspace. */
  readonly noun: 'repository' | 'folder';
  /** Sources that are the workspace's own files (a plain folder's: itself, as a source without a name). */
  ownSources(ctx: IndexContext): SourceSpec[];
  /** The manifest a view starts from before the work tree and sources are laid over it; null: never indexed. */
  baseManifest(ctx: IndexContext): Manifest | null;
  /** Whether an index run is due before answering. */
  indexBehind(ctx: IndexContext): boolean;
  /** Whether the index answers for what the workspace holds now (status's "up to date"). */
  upToDate(ctx: IndexContext): boolean;
  /** HEAD as git holds it now (a folder's is always the same nothing). */
  headNow(ctx: IndexContext): Promise<HeadSnapshot>;
  /** The uncommitted edits a view lays over the base manifest; null where there is no git to ask. */
  workingChanges(ctx: IndexContext): Promise<WorkingChange[]> | null;
  /** Why answering from the index as it is would be wrong while a run works for `ctx.head` (a search while its own run works). */
  unansweredWhileRunning(ctx: IndexContext): Promise<'moved' | 'missing' | null>;
  /** HEAD and its ref as files, for a server's cheap signature; null when they can't be read so (reftable). */
  headFiles(ctx: IndexContext): string[] | null;
  /** The folders whose changes mean HEAD moved, each with whether any entry counts. */
  headFolders(ctx: IndexContext): Map<string, boolean>;
  /** The branches and detached commits checked out anywhere: gc keeps their manifests. */
  checkedOut(ctx: IndexContext): Promise<{ branches: Set<string>; detached: Set<string> }>;
  /** Refuses, in one line, a command that needs git (hooks, export, a dry run of a commit). */
  requireRepository(ctx: IndexContext, what: string): void;
  /**
   * Runs the way of this kind, where the two differ as a whole rather than in one answer (an index run indexes
   * HEAD or scans the folder; doctor checks a commit and hooks, or a folder's store): both ways are always given.
   */
  match<T>(ways: ForEachKind<T>): T;
}
