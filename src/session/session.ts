import path from 'node:path';
import type { Config } from '../config/config.js';
import { currentManifest } from '../index/manifest-state.js';
import type { IndexContext } from '../index/index-context.js';
import type { IndexProgress } from '../index/indexer.js';
import type { SearchOptions, SearchResult } from '../search/search.js';
import { CodeIndex } from '../service/code-index.js';
import { listSources, removeAgentSource } from '../service/sources.js';
import type { SourceSpec } from '../store/sources.js';
import { addAgentSources } from './agent-sources.js';
import type { Manifest } from '../store/manifest.js';
import { OcragError } from '../util/errors.js';
import { EarlyAnswers } from './early-first-answer.js';
import { checkQueryLength } from '../search/query-limit.js';
import { SessionStatusReader, type SessionStatus } from './session-status.js';
import { LiveView } from './live-view.js';
import { stateSignature } from './state-signature.js';
import { QueryCache } from './query-cache.js';
import { IndexTasks, type TaskStart } from './index-tasks.js';
import { idle, type ReindexKind, type ReindexOutcome, type ReindexRun, type ReindexSnapshot } from './reindex-job.js';
import { asStorageError } from '../util/storage-problem.js';
import { asIsNotice } from '../service/as-is.js';
import { SearchNotices } from './search-notices.js';
import { FOREGROUND_BUDGET_MS, type SessionOptions } from './session-options.js';
import { taskElsewhere } from './run-elsewhere.js';
import type { IndexLayout } from '../store/layout.js';
import { relatedCode, type RelatedAnswer, type RelatedQuery } from '../service/related.js';
import { definitions, SYMBOL_CANDIDATES, type SymbolDefinition } from '../search/symbol-match.js';
import { indexedManifest, listFiles, type ListedFile } from '../service/file-list.js';
import { askedOptions, searchAsAsked, searchesLiveView, type SearchQuery } from '../service/asked-search.js';
import { cliMayAsk, listenForIndex, type WarmListener } from './warm/session-listen.js';
import { withIndexCounts } from '../service/index-counts.js';

/**
 * The repository a server answers for: one CodeIndex (model loaded once), the live view searches run against,
 * and at most one background reindex. Opening is lazy and retried, so a server started in the wrong folder
 * still answers every call, with an error that says what to do.
 */
export class RepoSession {
  private opening: Promise<{ index: CodeIndex; live: LiveView }> | null = null;
  private queryCache: QueryCache | null = null;
  private readonly statusReader = new SessionStatusReader();
  /** The index runs of this repository, shared by every surface of the server. */
  readonly tasks: IndexTasks;
  private jobProgress: ((p: IndexProgress) => void) | null = null;
  /** HEAD, config and index files as they were when the index was last found up to date. */
  private checkedState: string | null = null;
  private searching: Promise<unknown> = Promise.resolve();
  private foregroundProgress: ((p: IndexProgress) => void) | null = null;
  /** The catch-up queued behind a job that works for a commit HEAD has left. */
  private following: Promise<void> | null = null;
  private readonly notices: SearchNotices;
  /** Where the index is, once opened: another process's run is read from it. */ private layout: IndexLayout | null = null;
  /** Where one-shot searches of the repository ask this session (options.warm). */ private warm: Promise<WarmListener | null> | null = null;
  /** A fresh clone's answers before its first index is complete. */ private readonly early: EarlyAnswers;

  constructor(private readonly options: SessionOptions) {
    this.notices = new SearchNotices(options.log);
    this.early = new EarlyAnswers(options.log);
    this.tasks = new IndexTasks(path.resolve(options.cwd), (kind, run) => this.runTask(kind, run), taskElsewhere(() => this.layout));
  }

  /**
   * Opens the index, loads the model and runs one search now, so the agent's first question finds everything
   * warm. Starts no indexing of its own (the first search does, if needed); failures wait for a real call.
   */
  preload(): void {
    this.open()
      .then(async ({ index }) => {
        await index.model();
        if (await this.behindHead(index)) return;
        await this.searchView(await this.view(), 'warm up', { k: 1 });
      })
      .catch(() => undefined);
  }

  /** Searches what the user sees now. While our own reindex runs, answers from the index as it was before it. */
  async search(query: string, opts: SearchOptions, onProgress?: (p: IndexProgress) => void): Promise<{ results: SearchResult[]; notice: string | null }> {
    checkQueryLength(query);
    const { index } = await this.open();
    const first = await this.early.answer(index, this.tasks, query, opts);
    if (first) return first;
    const { value: results, notices } = await this.notices.during(async () => this.searchView(await this.view(onProgress), query, opts));
    if (this.tasks.active) notices.push(`a reindex is running (${this.reindexSnapshot().percent}%): results come from the index as it was before it started`);
    return { results, notice: notices.length ? notices.join('; ') : null };
  }

  /**
   * The view a search would use now (see LiveView). When HEAD moved to a commit the index lacks, the update runs
   * as the background job and is waited for up to FOREGROUND_BUDGET_MS: a big one (a first index, a far branch)
   * then answers with an error saying to ask again, rather than outliving the client's tool-call timeout. A job
   * already running that will not give HEAD an index (it works for the branch checked out before) is waited for
   * within the same budget, then followed by the catch-up with HEAD.
   */
  async view(onProgress?: (p: IndexProgress) => void): Promise<Manifest> {
    const { index, live } = await this.open();
    this.foregroundProgress = onProgress ?? null;
    const deadline = Date.now() + FOREGROUND_BUDGET_MS;
    try {
      const unanswered = this.tasks.active ? await index.ctx.kind.unansweredWhileRunning(index.ctx) : null;
      if (unanswered) {
        await this.untilSettled(deadline);
        if (this.tasks.active && unanswered === 'moved') this.followHeadAfterJob(index);
      }
      if (!this.tasks.active && (await this.behindHead(index))) await this.catchUp(index, deadline);
      return await this.explainWhileIndexing(() => live.get({ update: !this.tasks.active }));
    } finally {
      this.foregroundProgress = null;
    }
  }

  /** A search as `ocrag search` runs it, for the CLI asking (warm/), over the live view when that is its view; null: the CLI answers itself. */
  async searchAsCli(query: string, opts: SearchQuery): Promise<{ results: SearchResult[]; notices: string[] } | null> {
    const { index } = await this.open();
    if (this.tasks.active || !cliMayAsk(index)) return null;
    const { value: results, notices } = await this.notices.during(async () => {
      if (!searchesLiveView(index.ctx, opts)) return this.oneAtATime(() => searchAsAsked(index, query, opts));
      const view = await this.view();
      return this.tasks.active ? null : this.searchView(view, query, askedOptions(index.ctx, opts));
    });
    return results && { results, notices };
  }

  async searchView(view: Manifest, query: string, opts: SearchOptions): Promise<SearchResult[]> {
    const { index } = await this.open();
    return this.oneAtATime(() => this.explainWhileIndexing(() => index.searchView(view, query, opts)));
  }

  /** Adds sources as an agent may (only under the config's `sourceRoots`), and brings the view up to date with them. */
  async addSources(paths: string[], name?: string): Promise<{ name: string; root: string; files: number }[]> {
    return addAgentSources(await this.context(), paths, name, () => this.view());
  }

  async removeSource(nameOrPath: string): Promise<SourceSpec> {
    return removeAgentSource(await this.context(), nameOrPath);
  }

  listSources = async (): Promise<SourceSpec[]> => listSources(await this.context());

  /** Where the session answers: the repository and its settings. */
  private async context(): Promise<IndexContext> {
    return (await this.open()).index.ctx;
  }

  /** The settings in force: `.ocrag/config.json`, the environment and the flags the session was opened with. */
  async settings(): Promise<Config> {
    return (await this.context()).config;
  }

  /** The folder answered for: the repository's work tree, or the plain folder. */
  async root(): Promise<string> {
    return (await this.context()).repo.root;
  }

  /** Code like the chunk at a location of what the user sees (that chunk left out). */
  async related(query: RelatedQuery): Promise<RelatedAnswer> {
    const view = await this.view();
    const ctx = await this.context();
    return relatedCode({ root: ctx.repo.root, maxLineChars: ctx.config.maxLineChars, view }, query, (text, opts) => this.searchView(view, text, opts));
  }

  /** Definitions named like `name`, found among the best SYMBOL_CANDIDATES matches of a search for it. */
  async findSymbol(name: string, k: number): Promise<{ definitions: SymbolDefinition[]; searched: number }> {
    const found = await this.searchView(await this.view(), name, { k: SYMBOL_CANDIDATES });
    return { definitions: definitions(found, name).slice(0, k), searched: found.length };
  }

  /** The files a search sees now, with their chunk counts; an index never built is an error, not a first run. */
  async files(): Promise<ListedFile[]> {
    indexedManifest(await this.context());
    // Like a search, the view first brings the index up to HEAD; HEAD's manifest is read after it.
    const view = await this.view();
    const ctx = await this.context();
    return listFiles(ctx, indexedManifest(ctx), view);
  }

  /** Starts a background run as a task (or finds the one running); fails when the repository cannot be opened. */
  async startTask(kind: ReindexKind): Promise<TaskStart> {
    await this.open();
    return this.tasks.start(kind);
  }

  private async runTask(kind: ReindexKind, { signal, onProgress, id }: ReindexRun & { id: string }) {
    const { index, live } = await this.open();
    this.jobProgress = onProgress;
    await this.early.beforeRun();
    // A finished task shows the counts the header, the file list and doctor show for the index it left.
    return index.index({ rebuild: kind === 'full', signal, runId: id }).then((summary) => withIndexCounts(index.ctx, summary)).finally(() => {
      this.jobProgress = null;
      live.invalidate();
    });
  }

  /** Whether HEAD's commit still has to be indexed; asks git only when HEAD, the config or the index files changed. */
  private async behindHead(index: CodeIndex): Promise<boolean> {
    const signature = stateSignature(index.ctx);
    const state = signature && `${signature.source}\n${signature.index}`;
    if (state !== null && state === this.checkedState) return false;
    await index.refreshHead();
    const behind = index.ctx.kind.indexBehind(index.ctx);
    this.checkedState = behind ? null : state;
    return behind;
  }

  private async catchUp(index: CodeIndex, deadline: number): Promise<void> {
    this.tasks.start('incremental');
    const ended = await this.untilSettled(deadline);
    if (ended?.state !== 'failed') return;
    // A disk that refuses the update (read-only, full) leaves the index as it is to answer from, and says so.
    const refused = asStorageError(ended.cause, index.ctx.layout.dir);
    const at = currentManifest(index.ctx);
    if (!refused || !at) throw new OcragError(ended.error, 'index');
    this.notices.tell(asIsNotice(refused, `answering from the index as it is (${at.commit.slice(0, 8)}, behind HEAD)`));
  }

  /** Waits for the running job until `deadline`; how it ended, or null when it is still running. */
  private untilSettled(deadline: number): Promise<ReindexOutcome | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()))));
    return Promise.race([this.tasks.settled().then((outcome) => outcome ?? null), late]).finally(() => clearTimeout(timer));
  }

  /** Queues the catch-up with HEAD for when the running job ends, so the user's new branch gets indexed unasked. */
  private followHeadAfterJob(index: CodeIndex): void {
    if (this.following) return;
    this.following = this.tasks
      .settled()
      .then(async () => {
        // A job the user cancelled is not followed by another they did not ask for; their next search still catches up.
        if (this.reindexSnapshot().state === 'cancelled') return;
        if (!this.tasks.active && (await this.behindHead(index))) this.tasks.start('incremental');
      })
      .catch((e: unknown) => this.options.log?.(`ocrag mcp: catching up with HEAD failed: ${(e as Error)?.message ?? String(e)}`))
      .finally(() => (this.following = null));
  }

  /** The running task, else the last one, as index_status has always shown it (idle when none ran). */
  reindexSnapshot(): ReindexSnapshot {
    return this.tasks.status() ?? idle();
  }

  /** A read-only report; never waits for a running reindex, never moves the index's idea of HEAD under it. */
  async status(): Promise<SessionStatus> {
    return this.statusReader.read((await this.open()).index, this.tasks, this.queryCache);
  }

  async close(): Promise<void> {
    await (await this.warm)?.close();
    this.tasks.cancel();
    await this.tasks.settled();
    const opened = await this.opening?.catch(() => null);
    opened?.live.close();
    await opened?.index.close();
  }

  private open(): Promise<{ index: CodeIndex; live: LiveView }> {
    if (!this.opening) {
      const opening = CodeIndex.open(this.options.cwd, this.options.flags ?? {}, {
        onNotice: this.notices.tell,
        onProgress: (p) => {
          this.foregroundProgress?.(p);
          if (this.tasks.active) this.jobProgress?.(p);
        },
        wrapModel: (model) => (this.queryCache = new QueryCache(model)),
      }, { keepStoreOpen: true }, this.options.plain ?? 'existing').then((index) => {
        this.layout = index.ctx.layout;
        if (this.options.warm) this.warm = listenForIndex(index, this.options, (q, o) => this.searchAsCli(q, o));
        return { index, live: new LiveView(index) };
      });
      // Not inside a repository yet, say: the next call tries again rather than repeating a stale failure.
      opening.catch(() => {
        if (this.opening === opening) this.opening = null;
      });
      this.opening = opening;
    }
    return this.opening;
  }

  /**
   * Searches run one after another: the search engine's in-memory chunk cache fills itself on demand and is not
   * built for two fills at once, and on two cores parallel searches would not finish sooner anyway.
   */
  private oneAtATime<T>(run: () => Promise<T>): Promise<T> {
    const result = this.searching.then(run, run);
    this.searching = result.catch(() => undefined);
    return result;
  }

  /** While our job builds the index this commit needs (or a full rebuild refills it), say so instead of "run ocrag index". */
  private async explainWhileIndexing<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (!this.tasks.active || !(e instanceof OcragError) || e.kind !== 'index') throw e;
      const job = this.reindexSnapshot();
      const what = this.following ? 'finishing a run for the commit checked out before, then catching up with HEAD' : job.kind === 'full' ? 'being rebuilt' : 'catching up with HEAD';
      throw new OcragError(`the index is ${what} (${job.percent}%: ${job.files.done}/${job.files.total} files): search again in a moment; index_status shows progress`, 'index');
    }
  }
}
