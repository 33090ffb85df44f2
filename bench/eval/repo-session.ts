// One benchmark checkout, indexed once through CodeIndex, then searched in-process as many times as needed.
import fs from 'node:fs';
import { CodeIndex } from '../../src/service/code-index.js';
import { rankHits, rankWithEvidence, searchManifest, storeRetriever, type Retriever, type SearchResult } from '../../src/search/search.js';
import type { Hit } from '../../src/search/rank/hit.js';
import type { RankingConfig } from '../../src/search/rank/config.js';
import { readMeta } from '../../src/store/meta.js';
import { openStore } from '../../src/store/open-store.js';
import { StoreHandle } from '../../src/store/store-handle.js';
import type { Manifest } from '../../src/store/manifest.js';
import type { BenchRepo, Harness, Task } from './harness.js';
import { indexCheckout } from './index-checkout.js';
import { scorable } from './shown.js';

export interface QueryRow {
  query: string;
  category: string;
  ndcg10: number;
  ndcg5: number;
  ranks: number[];
  nTargets: number;
  ms: number;
  top: string[];
  targets: string[];
}

export interface RepoRun {
  repo: string;
  language: string;
  indexMs: number;
  chunks: number;
  rows: QueryRow[];
}

export class RepoSession {
  private retriever: Retriever | null = null;
  private store: StoreHandle | null = null;

  private constructor(
    readonly repo: BenchRepo,
    readonly tasks: Task[],
    readonly glob: string | undefined,
    readonly index: CodeIndex,
    readonly view: Manifest,
    readonly indexMs: number,
    readonly chunks: number,
    /** Results show their whole chunks (`--whole`), for measuring what cutting long ones saves. */
    readonly whole: boolean,
  ) {}

  static async open(h: Harness, repo: BenchRepo, opts: { rebuild?: boolean; annotations?: string; whole?: boolean; log: (m: string) => void }): Promise<RepoSession> {
    const dir = h.checkoutDir(repo);
    if (!fs.existsSync(dir)) throw new Error(`${repo.name}: no checkout at ${dir} (run the harness's checkout.mjs)`);
    const index = await CodeIndex.open(dir, {}, { onNotice: (m) => opts.log(`  ${m}`) });
    const { indexMs } = await indexCheckout(index, repo.name, (m) => opts.log(`  ${m}`), opts.rebuild);
    const view = await index.currentView({ update: false, committedOnly: true });
    const root = h.rootOf(repo);
    const store = await openStore(index.ctx.layout, readMeta(index.ctx.layout.meta)!.dim);
    const chunks = await store.countChunks();
    store.close();
    return new RepoSession(repo, h.loadTasks(repo, opts.annotations), root === '.' ? undefined : `${root}/**`, index, view, indexMs, chunks, opts.whole ?? false);
  }

  /** Through CodeIndex.searchView exactly as a surface calls it (opens the store per call): the latency users see. */
  async searchAsUser(query: string, k: number, ranking?: Partial<RankingConfig>): Promise<SearchResult[]> {
    return this.index.searchView(this.view, query, { k, pathGlob: this.glob, ranking, whole: this.whole });
  }

  /** The same ranking over a store kept open: identical results, fast ablations and sweeps. */
  async searchCached(query: string, k: number, ranking?: Partial<RankingConfig>): Promise<SearchResult[]> {
    if (!this.retriever) {
      const meta = readMeta(this.index.ctx.layout.meta)!;
      this.store = new StoreHandle(this.index.ctx.layout, meta.dim, meta.createdAt);
      this.retriever = storeRetriever(this.store, await this.index.model());
    }
    return searchManifest(this.view, this.retriever, query, { k, pathGlob: this.glob, ranking, whole: this.whole });
  }

  /** The top hits with each ranking component's part, for reading why a query ranks as it does. */
  async explain(query: string, k: number, ranking?: Partial<RankingConfig>): Promise<Hit[]> {
    await this.searchCached(query, 1, ranking);
    return rankHits(this.view, this.retriever!, query, { k, pathGlob: this.glob, ranking });
  }

  /** The top hits with what the relevance rule reads of them (src/search/match-evidence.ts). */
  async explainMatch(query: string, k: number, ranking?: Partial<RankingConfig>): ReturnType<typeof rankWithEvidence> {
    await this.searchCached(query, 1, ranking);
    return rankWithEvidence(this.view, this.retriever!, query, { k, pathGlob: this.glob, ranking });
  }

  async run(h: Harness, k: number, mode: 'user' | 'cached', ranking?: Partial<RankingConfig>): Promise<RepoRun> {
    const rows: QueryRow[] = [];
    for (const task of this.tasks) {
      const t0 = performance.now();
      const results = mode === 'user' ? await this.searchAsUser(task.query, k, ranking) : await this.searchCached(task.query, k, ranking);
      const ms = performance.now() - t0;
      const scored = h.scoreQuery(results.map((r) => scorable(h, r, task.targets)), task);
      rows.push({ query: task.query, category: task.category, ndcg10: scored.ndcg10, ndcg5: scored.ndcg5, ranks: scored.ranks, nTargets: task.targets.length, ms, top: results.map((r) => `${r.path}:${r.startLine}-${r.endLine}`), targets: task.targets.map((t) => (t.start != null ? `${t.path}:${t.start}-${t.end}` : t.path)) });
    }
    return { repo: this.repo.name, language: this.repo.language, indexMs: this.indexMs, chunks: this.chunks, rows };
  }

  async close(): Promise<void> {
    this.store?.close();
    await this.index.close();
  }
}
