import fs from 'node:fs';
import type { Config } from '../config/config.js';
import type { PlainFolderUse } from '../index/index-context.js';
import type { IndexPlan } from '../index/dry-run.js';
import type { GcResult } from '../index/gc.js';
import type { IndexProgress, IndexSummary } from '../index/indexer.js';
import type { SearchResult } from '../search/search.js';
import type { CodeIndex } from '../service/code-index.js';
import { DEFAULT_K, searchAsAsked, type SearchQuery } from '../service/asked-search.js';
import type { RelatedAnswer, RelatedQuery } from '../service/related.js';
import { definitions, SYMBOL_CANDIDATES, type SymbolDefinition } from '../search/symbol-match.js';
import { removeFromIndex, type Excluded } from '../service/exclude.js';
import type { ListedFile } from '../service/file-list.js';
import { addSources, agentSourcePaths, listSources, removeAgentSource, removeSource } from '../service/sources.js';
import type { IndexStatus } from '../service/status.js';
import type { ExportOptions, ExportSummary } from '../share/export.js';
import type { ImportSummary } from '../share/import.js';
import type { PublishSummary } from '../share/publish.js';
import { sourceFileCount, type SourceSpec } from '../store/sources.js';
import { asStoreDamage } from '../store/damage.js';
import { OcragError } from '../util/errors.js';
import { withIndexLock } from '../util/file-lock.js';
import { asStorageError } from '../util/storage-problem.js';
import type { ModelPool } from './models.js';
import { WorkspaceWatch } from './watch.js';

/** Where a workspace tells what it does on the user's behalf; every member is optional (a library caller may want silence). */
export interface Reporter {
  /** One-line notices: an index run first, a model built, a lock waited for, sources left stale. */
  notice?(message: string): void;
  /** How an index run is getting on. */
  progress?(progress: IndexProgress): void;
}

export interface OpenOptions {
  /** Settings over `.ocrag/config.json` (the CLI's global flags). */
  config?: Partial<Config>;
  reporter?: Reporter;
  /**
   * Outside git, whether a folder is a workspace: `create` takes the nearest folder indexed before, else the path
   * itself (its first index makes it a knowledge base); `existing` only a folder indexed before (the default);
   * false: git work trees only (export and publish need commits).
   */
  folder?: PlainFolderUse | false;
  /**
   * Starts an index run that outlives this process (the CLI: a detached child). Given, a fresh clone's search
   * answers from the team's published set at once and leaves the copy to that run.
   */
  startBackgroundIndex?: (root: string, earlyChunks?: string) => void;
  /** Models kept loaded across workspaces (see ModelPool); the pool, not the workspace, closes them. */
  models?: ModelPool;
  /**
   * A process that opens the workspace for one search of the work tree as it is (the CLI's): git reads the work
   * tree while the repository is opened. Not for a workspace kept open, whose later searches must ask git again.
   */
  statusAtOpen?: boolean;
}


/** A question of any of the three kinds a workspace answers (see `find`). */
export type Query = ({ kind: 'code'; text: string } & SearchQuery) | { kind: 'symbol'; name: string; k?: number } | ({ kind: 'related'; k?: number } & Omit<RelatedQuery, 'k'>);

/** What `find` answers for each kind of query. */
export type AnswerTo<Q extends Query> = Q extends { kind: 'symbol' } ? SymbolDefinition[] : Q extends { kind: 'related' } ? RelatedAnswer : SearchResult[];

export { DEFAULT_K, type SearchQuery } from '../service/asked-search.js';

/**
 * One repository work tree (a worktree too) or plain folder, and its index: the front door every surface and
 * library caller goes through. Opened once from a path; each call brings the index up to date with what is checked
 * out before it answers, as a search would.
 */
export class Workspace {
  private constructor(private readonly engine: CodeIndex) {}

  static async open(at: string, opts: OpenOptions = {}): Promise<Workspace> {
    // The engine loads on first use: a hook's fast path and `--help` never need it.
    const { CodeIndex } = await import('../service/code-index.js');
    const { reporter, models } = opts;
    const hooks = { onNotice: reporter?.notice, onProgress: reporter?.progress, startBackgroundIndex: opts.startBackgroundIndex, sharedModel: models && ((spec: string) => models.get(spec)) };
    const folder = opts.folder === false ? undefined : (opts.folder ?? 'existing');
    return new Workspace(await CodeIndex.open(at, opts.config ?? {}, hooks, { statusAtOpen: opts.statusAtOpen }, folder));
  }

  /** The work tree's top folder, or the plain folder. */
  get root(): string {
    return this.engine.ctx.repo.root;
  }

  /** Where the index lives (`.ocrag/` of the main work tree, or of the folder). */
  get indexFolder(): string {
    return this.engine.ctx.layout.dir;
  }

  /** The settings in force: `.ocrag/config.json` with the open's overrides. */
  get config(): Readonly<Config> {
    return this.engine.ctx.config;
  }

  search(query: string, opts: SearchQuery = {}): Promise<SearchResult[]> {
    return searchAsAsked(this.engine, query, opts);
  }

  /** Definitions named like `name` ("parseArgs", "Router.handle", "tokio::spawn"), best match first. */
  async findSymbol(name: string, opts: { k?: number } = {}): Promise<SymbolDefinition[]> {
    if (!name.trim()) throw new OcragError('empty name: say which symbol to find');
    const view = await this.engine.currentView();
    return definitions(await this.engine.searchView(view, name, { k: SYMBOL_CANDIDATES }), name).slice(0, opts.k ?? DEFAULT_K);
  }

  /** Code like the chunk at a location (a file as search names it, and a line in it); that chunk is left out. */
  async related(query: Omit<RelatedQuery, 'k'> & { k?: number }): Promise<RelatedAnswer> {
    const view = await this.engine.currentView();
    const { ctx } = this.engine;
    const where = { root: ctx.repo.root, maxLineChars: ctx.config.maxLineChars, view };
    // Loaded when asked: it brings the chunker (tree-sitter and its rules), which a search never needs.
    const { relatedCode } = await import('../service/related.js');
    return relatedCode(where, { ...query, k: query.k ?? DEFAULT_K }, (text, opts) => this.engine.searchView(view, text, opts));
  }

  /** Any of the three questions as one value: code by meaning or words, a symbol by name, code like a location. */
  find<Q extends Query>(query: Q): Promise<AnswerTo<Q>> {
    const asked: Query = query;
    const answer = asked.kind === 'symbol' ? this.findSymbol(asked.name, asked) : asked.kind === 'related' ? this.related(asked) : this.search(asked.text, asked);
    return answer as Promise<AnswerTo<Q>>;
  }

  /** Indexes what is checked out (a folder: its files and sources), embedding only content never seen before. */
  index(opts: { rebuild?: boolean; signal?: AbortSignal } = {}): Promise<IndexSummary> {
    return this.engine.index(opts);
  }

  /** What an index run would do, writing nothing. */
  async plan(): Promise<IndexPlan> {
    this.engine.ctx.kind.requireRepository(this.engine.ctx, 'index --dry-run');
    return (await import('../index/dry-run.js')).dryRun(this.engine.ctx);
  }

  /** Deletes the index (vectors and manifests), keeping the settings; after a run in progress, never under it. */
  async clear(): Promise<string> {
    const { ctx } = this.engine;
    const { layout } = ctx;
    const { clearIndex } = await import('../index/indexer.js');
    if (fs.existsSync(layout.dir)) await withIndexLock(layout.lock, this.engine.notice, async () => clearIndex(ctx)).catch((e) => Promise.reject(asStoreDamage(e, layout.tables)));
    return layout.dir;
  }

  gc(keep?: number): Promise<GcResult> {
    return this.engine.gc(keep);
  }

  async status(): Promise<IndexStatus> {
    // Loaded when asked, as the other commands' parts: gc, remote and source scans are no part of a search.
    return (await import('../service/status.js')).indexStatus(this.engine.ctx);
  }

  /** The files search sees (with `committedOnly`, HEAD's as committed), with their chunk counts and where each comes from. */
  async files(opts: { glob?: string; committedOnly?: boolean } = {}): Promise<ListedFile[]> {
    const { indexedManifest, listFiles } = await import('../service/file-list.js');
    const manifest = indexedManifest(this.engine.ctx);
    // A folder has no commits: its files as they are are all there is.
    const committed = opts.committedOnly && !this.engine.ctx.kind.ownSources(this.engine.ctx).length;
    const view = committed ? manifest : await this.engine.currentView({ update: false });
    return listFiles(this.engine.ctx, manifest, view, opts.glob);
  }

  sources(): SourceSpec[] {
    return listSources(this.engine.ctx);
  }

  /**
   * Adds folders or files as sources and indexes them now; a disk that refuses their chunks takes them back whole.
   * Asked `by` an agent, the paths are from the repository root and only those under `sourceRoots` may be added.
   */
  async addSources(paths: string[], opts: { name?: string; maxBytes?: number; by?: 'user' | 'agent' } = {}): Promise<{ name: string; root: string; files: number }[]> {
    const { ctx } = this.engine;
    const added = await addSources(ctx, opts.by === 'agent' ? agentSourcePaths(ctx, paths) : paths, opts.name, opts.maxBytes);
    const view = await this.engine.currentView({ writesRequired: true }).catch((e: unknown) => {
      if (asStorageError(e, ctx.layout.dir)) for (const s of added) forgetSource(ctx, s.name);
      throw e;
    });
    return added.map((s) => ({ name: s.name, root: s.root, files: sourceFileCount(Object.keys(view.files), s.name) }));
  }

  /** Takes out a source an agent names (by name, or the path it was added with from the repository root); nothing else. */
  removeSource(nameOrPath: string): SourceSpec {
    return removeAgentSource(this.engine.ctx, nameOrPath);
  }

  /** Takes out a source (by name or the path it was added with), else excludes a file or folder of the tree. */
  remove(nameOrPath: string, cwd: string): { source: SourceSpec } | { excluded: Excluded } {
    return removeFromIndex(this.engine.ctx, nameOrPath, cwd);
  }

  async export(opts: ExportOptions = {}): Promise<ExportSummary> {
    const { exportIndex } = await import('../share/export.js');
    return exportIndex({ ctx: this.engine.ctx, indexHead: () => this.engine.index() }, { onNotice: this.engine.notice, ...opts });
  }

  /** Brings in an artifact of `ocrag export` (a file, an https:// URL or an s3:// object); embeds nothing. */
  async import(artifact: string): Promise<ImportSummary & { bytesDownloaded?: number }> {
    const { downloadArtifact, isArtifactUrl, shownUrl } = await import('../share/artifact-url.js');
    const { importArtifact } = await import('../share/import.js');
    const download = isArtifactUrl(artifact) ? await downloadArtifact(artifact) : null;
    try {
      // The model loads only when its description cannot tell the vector size.
      const imported = await importArtifact({ ctx: this.engine.ctx, model: () => this.engine.model() }, download?.file ?? artifact, { onNotice: this.engine.notice });
      return download ? { ...imported, file: shownUrl(artifact), bytesDownloaded: download.bytes } : imported;
    } finally {
      download?.remove();
    }
  }

  /** Indexes HEAD if needed and publishes its chunks and manifest to the team store (`remote` in the settings). */
  async publish(opts: { compact?: boolean } = {}): Promise<PublishSummary> {
    const { publishHead } = await import('../share/publish.js');
    return publishHead({ ctx: this.engine.ctx, indexHead: () => this.engine.index(), model: () => this.engine.model() }, { ...opts, onNotice: this.engine.notice });
  }

  /** Follows edits, checkouts and commits (`ocrag watch`): `changed` is called on each; `refresh` embeds what changed. */
  watch(changed: () => void): WorkspaceWatch {
    return new WorkspaceWatch(this.engine, changed);
  }

  /** Lets go of the model and the store. */
  close(): Promise<void> {
    return this.engine.close();
  }
}

/** Takes a source back; on a disk that refuses this small write too, it stays, and its files are indexed by the next search. */
function forgetSource(ctx: CodeIndex['ctx'], name: string): void {
  try {
    removeSource(ctx, name);
  } catch {
    // The refusal being reported already says what to do.
  }
}
