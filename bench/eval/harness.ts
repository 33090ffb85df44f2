// The semble benchmark harness's own modules (scoring, task loading), so our numbers are scored exactly as its
// run.mjs scores them. Found at $OCRAG_BENCH_HARNESS, else ../shared/bench beside the project root.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Target {
  path: string;
  start: number | null;
  end: number | null;
}

export interface Task {
  query: string;
  category: string;
  targets: Target[];
}

export interface BenchRepo {
  name: string;
  language: string;
  benchmark_root?: string;
}

export interface RepoSummary {
  queries: number;
  ndcg10: number;
  ndcg5: number;
  by_category: Record<string, number>;
}

export interface Harness {
  dir: string;
  published: { repos: Record<string, Record<string, unknown>>; sources: Record<string, unknown> };
  loadRepos(file?: string): BenchRepo[];
  selectRepos(repos: BenchRepo[], names: string[]): BenchRepo[];
  loadTasks(repo: BenchRepo, annotations?: string): Task[];
  checkoutDir(repo: BenchRepo): string;
  rootOf(repo: BenchRepo): string;
  /** Whether a result covers a target: the paths match and, when both have lines, the line ranges overlap. */
  covers(result: { path: string; start: number | null; end: number | null }, target: Target): boolean;
  scoreQuery(results: { path: string; start: number | null; end: number | null }[], task: Task): { ndcg10: number; ndcg5: number; ranks: number[] };
  summarizeRepo(rows: { category: string; ndcg10: number; ndcg5: number }[]): RepoSummary;
  summarizeAll(summaries: RepoSummary[]): { repos: number; ndcg10: number; by_category: Record<string, number> };
  percentile(values: number[], p: number): number | null;
}

export async function loadHarness(projectRoot: string): Promise<Harness> {
  const dir = path.resolve(process.env.OCRAG_BENCH_HARNESS ?? path.join(projectRoot, '..', 'shared', 'bench'));
  if (!fs.existsSync(path.join(dir, 'lib', 'score.mjs'))) throw new Error(`benchmark harness not found at ${dir} (set OCRAG_BENCH_HARNESS)`);
  const common = await import(pathToFileURL(path.join(dir, 'lib', 'common.mjs')).href);
  const score = await import(pathToFileURL(path.join(dir, 'lib', 'score.mjs')).href);
  return {
    dir,
    published: JSON.parse(fs.readFileSync(path.join(dir, 'published.json'), 'utf8')),
    loadRepos: (file) => (file ? common.loadRepos(file) : common.loadRepos()),
    selectRepos: common.selectRepos,
    loadTasks: (repo, annotations) => (annotations ? common.loadTasks(repo, annotations) : common.loadTasks(repo)),
    checkoutDir: common.checkoutDir,
    rootOf: common.rootOf,
    covers: score.covers,
    scoreQuery: score.scoreQuery,
    summarizeRepo: score.summarizeRepo,
    summarizeAll: score.summarizeAll,
    percentile: common.percentile,
  };
}

/**
 * The same harness over another set of repositories: their repos.json, their annotations and their checkouts
 * (<checkouts>/<name>), e.g. the dev set under bench/devset.
 */
export function withRepoSet(h: Harness, set: { reposFile?: string; checkouts?: string }): Harness {
  const checkouts = set.checkouts;
  return {
    ...h,
    loadRepos: (file) => h.loadRepos(file ?? set.reposFile),
    checkoutDir: checkouts ? (repo) => path.join(checkouts, repo.name) : h.checkoutDir,
  };
}
