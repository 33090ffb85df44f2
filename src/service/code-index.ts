import type { Config } from '../config/config.js';
import type { Embedder } from '../embed/index.js';
import { openContext } from '../index/context.js';
import { requireHead, supersededDefaultModel } from '../index/manifest-state.js';
import type { IndexContext, PlainFolderUse } from '../index/index-context.js';
import type { GcResult } from '../index/gc.js';
import { withWorkingTree } from '../index/overlay.js';
import { answerBeforeIndex } from './before-index.js';
import { ModelSlot } from './model-slot.js';
import type { PartialAnswer } from './early-answer.js';
import { withSources, type SourcesView } from '../index/sources.js';
import { readyFolderStore, viewSources } from '../index/folder.js';
import { AsIs } from './as-is.js';
import { settleRun } from './search-snapshot.js';
import { ChunksInHand } from '../index/chunks-in-hand.js';
import { summarize } from '../index/known-tree.js';
import type { IndexProgress, IndexSummary } from '../index/indexer.js';
import { recordedRun } from './run-record.js';
import { asStoreDamage, isStoreDamage } from '../store/damage.js';
import { checkSearchSet } from './stored-rows.js';
import { storeExists } from '../store/open-store.js';
import { writingInto } from '../store/index-folder.js';
import { StoreHandle } from '../store/store-handle.js';
import type { Manifest } from '../store/manifest.js';
import { readSources } from '../store/sources.js';
import { rememberIndexedRoot } from '../store/known-roots.js';
import { assertSameModel, readMeta, type StoreMeta } from '../store/meta.js';
import { restoreSearchSet, searchManifest, storeRetriever, type SearchOptions, type SearchResult } from '../search/search.js';
import { withSourceFile } from '../search/result-path.js';
import { checkQueryLength } from '../search/query-limit.js';
import { OcragError, INDEX_RUN, REBUILD } from '../util/errors.js';
import { KeptStore } from './kept-store.js';
import { withIndexLock } from '../util/file-lock.js';
import type { CodeIndexHooks, CodeIndexOptions, ViewOptions } from './code-index-options.js';

type IndexProgressListener = (p: IndexProgress) => void;

export type { CodeIndexHooks, CodeIndexOptions, ViewOptions } from './code-index-options.js';

/** One repository's index behind the front door: model and store kept open across calls, the index brought up to date with the checked-out commit before each answer. */
export class CodeIndex {
  private embedder: ModelSlot;
  /** Work an answer left to do before the process may end (an early answer's store and background run). */
  private afterAnswer: Promise<void> = Promise.resolve();
  /** HEAD was read by open(); the first refresh can skip git. Later calls (a long-lived server) re-read it. */
  private headJustRead = true;

  private readonly kept: KeptStore;

  private constructor(private context: IndexContext, private readonly hooks: CodeIndexHooks, private readonly options: CodeIndexOptions = {}) {
    this.kept = new KeptStore(context.layout);
    this.embedder = new ModelSlot(hooks);
  }

  /** Where this index runs, with HEAD as last read; re-reading HEAD makes a new context, so a run keeps its own. */
  get ctx(): IndexContext {
    return this.context;
  }

  /** Where notices go (nowhere when the opener gave no reporter). */
  get notice(): (message: string) => void {
    return this.hooks.onNotice ?? (() => undefined);
  }

  /** `at`: a folder, or a context opened there (a hook's run has one: git asked once). `plain`: outside any git repository, whether the folder is taken as a knowledge base of its own (index/context.ts). */
  static async open(at: string | IndexContext, flags: Partial<Config> = {}, hooks: CodeIndexHooks = {}, options: CodeIndexOptions = {}, plain?: PlainFolderUse): Promise<CodeIndex> {
    return new CodeIndex(typeof at === 'string' ? await openContext(at, flags, plain, options.statusAtOpen) : at, hooks, options);
  }

  /** The model, loaded (and on first use built) once per CodeIndex. */
  model(): Promise<Embedder> {
    return this.embedder.get(this.ctx.config.model);
  }

  /** Indexes HEAD (a folder: its files). Waits for a run in another process (a hook's) unless the caller holds the lock already. */
  index(opts: { rebuild?: boolean; holdingLock?: boolean; signal?: AbortSignal; runId?: string } = {}): Promise<IndexSummary> {
    return this.ctx.kind.match({ git: () => this.indexHead(opts), folder: () => this.indexFolder(opts.rebuild, opts.signal, opts.runId) });
  }

  private async indexHead(opts: { rebuild?: boolean; holdingLock?: boolean; signal?: AbortSignal; runId?: string }): Promise<IndexSummary> {
    await this.refreshHead();
    const inHand = new ChunksInHand();
    const summary = await this.runIndex(opts.rebuild, opts.holdingLock, opts.signal, opts.runId, inHand);
    if (summary.upToDate) await checkSearchSet(this.ctx);
    await this.refreshSources();
    return summary;
  }

  /** A plain folder's run: its store made ready, then the folder and its sources scanned and embedded, under the lock and recorded as a commit's run is. */
  private indexFolder(rebuild?: boolean, signal?: AbortSignal, runId?: string): Promise<IndexSummary> {
    const started = performance.now();
    const run = this.locked(() => this.recorded(rebuild, runId, async (onProgress) => (await this.readyFolderLocked(started, rebuild, signal, onProgress)) ?? this.scanFolder(started, onProgress)));
    return this.settled(run.then((summary) => this.remembered(summary)));
  }

  /** The folder's store made ready under the lock; redone beside, scan included, when it must be (that run's summary). */
  private readyFolder(started: number): Promise<IndexSummary | null> {
    return this.settled(this.locked(() => this.readyFolderLocked(started)));
  }

  private readyFolderLocked(started: number, rebuild = false, signal?: AbortSignal, onProgress?: IndexProgressListener): Promise<IndexSummary | null> {
    const scan = (staged: IndexContext) => {
      const twin = new CodeIndex(staged, this.hooks);
      twin.embedder = this.embedder;
      return twin.scanFolder(started, onProgress);
    };
    return readyFolderStore(this.ctx, () => this.model(), scan, { rebuild, signal, onNotice: this.hooks.onNotice });
  }

  /** Scans the folder and its sources, embedding what is new, and sums up its index. */
  private scanFolder(started: number, onProgress?: IndexProgressListener): Promise<IndexSummary> {
    return this.withView({ update: false, onProgress }, async (view, store, _embedder, laid) =>
      ({ ...summarize(view, { upToDate: laid.newBlobs === 0, newBlobs: laid.newBlobs, chunksEmbedded: laid.chunksEmbedded, chunksTotal: await (await store.get()).countChunks(), started }, this.ctx.config), folder: this.ctx.repo.root }));
  }

  /** An index run (a hook's too) also embeds what changed in the added sources, so the next search finds it done. */
  private async refreshSources(): Promise<void> {
    if (readSources(this.ctx.layout.sources).length === 0) return;
    try {
      await this.withView({ update: false, committedOnly: true }, async () => undefined);
    } catch (e) {
      this.hooks.onNotice?.(`ocrag: sources not refreshed: ${(e as Error).message}`);
    }
  }

  /** Drops manifests beyond `keep` (checked-out ones always stay) and the chunks only they referenced. */
  gc(keep = this.ctx.config.keepManifests): Promise<GcResult> {
    // Writers load on demand: a search process never needs the indexer, the chunker or their parsers.
    return this.locked(async () => (await import('../index/gc.js')).collectGarbage(this.ctx, keep)).catch((e) => Promise.reject(asStoreDamage(e, this.ctx.layout.tables)));
  }

  private runIndex(rebuild = false, holdingLock = false, signal?: AbortSignal, runId?: string, inHand?: ChunksInHand): Promise<IndexSummary> {
    const run = () =>
      this.recorded(rebuild, runId, async (onProgress) => {
        const summary = await (await import('../index/indexer.js')).indexHead(this.ctx, { rebuild, loadEmbedder: () => this.model(), onProgress, onNotice: this.hooks.onNotice, signal, inHand, deferCompaction: true, handed: this.options.handed });
        if (summary.upToDate) return summary;
        this.releaseStore();
        return settleRun(this.ctx, summary, inHand, this.hooks.onNotice);
      });
    // The run wrote (and maybe compacted) through its own handle: a kept one would not see it.
    return this.settled((holdingLock ? run() : this.locked(run)).then((summary) => this.remembered(summary)));
  }

  /** A writer's end: damage it met named as such, and the store handle let go (the writer used its own). */
  private settled<T>(work: Promise<T>): Promise<T> {
    return work.catch((e) => Promise.reject(asStoreDamage(e, this.ctx.layout.tables))).finally(() => this.releaseStore());
  }

  /** This machine's list of indexed roots (the panel's switcher) learns of this one after a run. */
  private remembered(summary: IndexSummary): IndexSummary {
    rememberIndexedRoot({ root: this.ctx.repo.root, kind: this.ctx.kind.noun, index: this.ctx.layout.dir });
    return summary;
  }

  /** Runs `run` recorded where every other process of this repository sees it (run-record.ts); the caller holds the index lock. */
  private recorded<T>(rebuild: boolean | undefined, runId: string | undefined, run: (onProgress: IndexProgressListener) => Promise<T>): Promise<T> {
    return recordedRun(this.ctx.layout, rebuild ? 'full' : 'incremental', runId, this.hooks.onProgress, run);
  }

  /** Runs a writer under the index lock, waiting for a run in another process (a hook's) to finish first. */
  private async locked<T>(run: () => Promise<T>): Promise<T> {
    return writingInto(this.ctx.layout, () =>
      withIndexLock(this.ctx.layout.lock, this.hooks.onNotice, async (waited) => {
        // HEAD may have moved while we waited; the other run may even have done our work.
        if (waited) await this.refreshHead();
        return run();
      }),
    );
  }

  /** Re-reads HEAD (cheap) so a long-lived server follows checkouts and commits. */
  async refreshHead(): Promise<void> {
    if (this.headJustRead) {
      this.headJustRead = false;
      return;
    }
    this.context = { ...this.context, head: await this.context.kind.headNow(this.context) };
  }

  /** Indexes first when the checked-out commit was never indexed with these settings, and says so. */
  async ensureFresh(): Promise<IndexSummary | null> {
    await this.refreshHead();
    const ctx = this.ctx;
    // A folder's store only has to exist: the view's scan embeds what is new.
    const folder = async () => {
      if (ctx.kind.indexBehind(ctx)) await this.readyFolder(performance.now());
      return null;
    };
    return ctx.kind.match({ folder, git: () => this.catchUpHead(ctx) });
  }

  private async catchUpHead(ctx: IndexContext): Promise<IndexSummary | null> {
    const { commit } = requireHead(ctx.head);
    if (!ctx.kind.indexBehind(ctx)) return null;
    // An index of the old default model gets its own notice from the run.
    if (!supersededDefaultModel(ctx)) this.hooks.onNotice?.(`ocrag: index is behind ${ctx.head.branch ?? 'HEAD'} (${commit.slice(0, 8)}); updating it first`);
    return this.runIndex();
  }

  /**
   * Answers for the tree the user sees: HEAD's index plus uncommitted edits and untracked files (unless
   * `committedOnly`), brought up to date first unless `update` is false.
   */
  async search(query: string, opts: SearchOptions & ViewOptions & { onPartial?: (partial: PartialAnswer) => void }): Promise<SearchResult[]> {
    if (!query.trim()) throw new OcragError('empty query: say what code you are looking for');
    checkQueryLength(query);
    opts = { onNotice: this.hooks.onNotice, ...opts };
    const before = await answerBeforeIndex(this.ctx, query, opts, () => this.model(), this.hooks);
    if (before) {
      this.afterAnswer = before.after;
      return before.results;
    }
    return this.withView(opts, async (view, store, embedder, { absolute: onDisk }) => {
      const results = await searchManifest(view, storeRetriever(store, embedder), query, opts);
      // A source's file says which source it is of and where it is: the scan that laid it over the view knows.
      return onDisk.size ? results.map((r) => withSourceFile(r, onDisk)) : results;
    }, restoreSearchSet);
  }

  /**
   * The manifest of what the user sees (as `search` answers for it). A long-lived server keeps it and searches
   * it with `searchView` while nothing changed, sparing git on every query.
   */
  currentView(opts: ViewOptions = {}): Promise<Manifest> {
    return this.withView(opts, async (view) => view);
  }

  /** Searches a view from `currentView` as it is, without asking git. */
  async searchView(view: Manifest, query: string, opts: SearchOptions): Promise<SearchResult[]> {
    if (!query.trim()) throw new OcragError('empty query: say what code you are looking for');
    return this.withStore(async (store, embedder) => searchManifest(view, storeRetriever(store, embedder), query, { onNotice: this.hooks.onNotice, ...opts }));
  }

  /** The manifest of what the user sees, with the store and model open for the duration of `use`. */
  private async withView<T>(opts: ViewOptions, use: (view: Manifest, store: StoreHandle, embedder: Embedder, laid: SourcesView) => Promise<T>, meanwhile?: (store: StoreHandle, embedder: Embedder) => void): Promise<T> {
    const asIs = new AsIs(() => this.ctx, opts.writesRequired ? undefined : this.hooks.onNotice, opts.writesRequired);
    if (opts.update !== false) await asIs.catchUp(() => this.ensureFresh());
    const manifest = opts.update === false ? await this.manifestAtHead() : this.ctx.kind.baseManifest(this.ctx);
    if (!manifest) throw new OcragError('no index for this commit yet: run "ocrag index"', 'index', INDEX_RUN);
    // git reads the work tree on the other core while the model loads, and `meanwhile` works (a search: its set restored).
    const changes = opts.committedOnly ? null : this.ctx.kind.workingChanges(this.ctx);
    changes?.catch(() => undefined);
    return this.withStore(async (store, embedder) => {
      if (changes) meanwhile?.(store, embedder);
      const view = changes ? await asIs.edits(() => withWorkingTree(this.ctx, manifest, store, embedder, changes), manifest) : manifest;
      const laid = await asIs.sources(() => withSources(this.ctx, view, viewSources(this.ctx, opts.sources !== false), store, embedder, opts.onProgress), view);
      return use(laid.view, store, embedder, laid);
    });
  }

  /**
   * The manifest of the branch (or detached commit) checked out now, without moving this index's idea of HEAD
   * (a run of ours may be using it): after a branch switch a long-lived caller must not lay the work tree over
   * the old branch's manifest.
   */
  private async manifestAtHead(): Promise<Manifest | null> {
    const { ctx } = this;
    return ctx.kind.baseManifest(this.headJustRead ? ctx : { ...ctx, head: await ctx.kind.headNow(ctx) });
  }

  /** The store and the model, checked to belong together, open for the duration of `use`. */
  private async withStore<T>(use: (store: StoreHandle, embedder: Embedder) => Promise<T>): Promise<T> {
    const embedder = await this.model();
    const meta = readMeta(this.ctx.layout.meta);
    if (!meta || !storeExists(this.ctx.layout)) throw new OcragError('the index is missing its store: run "ocrag index --rebuild"', 'index', REBUILD);
    assertSameModel(meta, embedder);
    try {
      if (this.options.keepStoreOpen) return await this.kept.use(meta, (store) => use(store, embedder));
      try {
        return await this.withFreshStore(meta, embedder, use);
      } catch (e) {
        // A compaction by another process may delete the files of the version we opened: once more on the new one.
        if (!isStoreDamage(e)) throw e;
        return await this.withFreshStore(meta, embedder, use);
      }
    } catch (e) {
      throw asStoreDamage(e, this.ctx.layout.tables);
    }
  }

  private async withFreshStore<T>(meta: StoreMeta, embedder: Embedder, use: (store: StoreHandle, embedder: Embedder) => Promise<T>): Promise<T> {
    const store = new StoreHandle(this.ctx.layout, meta.dim, meta.createdAt);
    try {
      return await use(store, embedder);
    } finally {
      store.close();
    }
  }

  /** Lets go of the store kept open (see `keepStoreOpen`): the next call opens it afresh and sees every write. */
  releaseStore(): void {
    this.kept.release();
  }

  async close(): Promise<void> {
    await this.afterAnswer;
    this.releaseStore();
    await this.embedder.close();
  }
}
