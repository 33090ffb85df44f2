// npm run bench:index [-- <repo> ...]: indexing and search numbers on real repositories. Prints numbers; asserts nothing.
// Default repositories: this one, and $OCRAG_BENCH_REPOS (comma-separated paths of clones) when set.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CodeIndex } from '../src/service/code-index.js';
import { measureGitAccess } from './git-access.js';
import { measureEmbedding } from './embedding.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
const QUERIES = ['parse command line arguments', 'where are errors retried', 'open a file and read its contents', 'spawn a background task', 'hash function', 'configuration loading from environment variables', 'BlobReader', 'shutdown gracefully when a signal arrives', 'convert bytes to string', 'timeout'];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function cli(args: string[], cwd: string): { ms: number; code: number; stdout: string } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { ms: performance.now() - t, code: r.status ?? -1, stdout: r.stdout };
}

async function benchRepo(repo: string): Promise<Record<string, unknown>> {
  fs.rmSync(path.join(repo, '.ocrag'), { recursive: true, force: true });
  const index = await CodeIndex.open(repo);
  await index.model();
  const t0 = performance.now();
  const full = await index.index();
  const fullSeconds = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const again = await index.index();
  const reindexMs = performance.now() - t1;
  const reindexCli = cli(['index', '--json'], repo);
  for (const q of QUERIES) await index.search(q, { k: 10 });
  const inProcess: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of QUERIES) {
      const t = performance.now();
      await index.search(`${q} ${round || ''}`.trim(), { k: 10 });
      inProcess.push(performance.now() - t);
    }
  }
  await index.close();
  // Three rounds, as in-process: a p50 of ten process runs moved by ±30 ms between identical runs.
  const cliTimes: number[] = [];
  for (let round = 0; round < 3; round++) for (const q of QUERIES) cliTimes.push(cli(['search', `${q} ${round || ''}`.trim(), '-k', '10', '--json'], repo).ms);
  return {
    repo: path.basename(repo),
    files: full.files,
    chunks: full.chunksTotal,
    fullIndexSeconds: +fullSeconds.toFixed(2),
    chunksPerSecond: Math.round(full.chunksEmbedded / fullSeconds),
    reindexUnchangedMs: Math.round(reindexMs),
    reindexUnchangedUpToDate: again.upToDate,
    reindexUnchangedCliMs: Math.round(reindexCli.ms),
    searchInProcessP50Ms: +percentile(inProcess, 50).toFixed(1),
    searchInProcessP90Ms: +percentile(inProcess, 90).toFixed(1),
    searchCliP50Ms: Math.round(percentile(cliTimes, 50)),
    searchCliP90Ms: Math.round(percentile(cliTimes, 90)),
  };
}

const repos = process.argv.slice(2).length ? process.argv.slice(2) : [ROOT, ...(process.env.OCRAG_BENCH_REPOS?.split(',').filter(Boolean) ?? [])];
console.log(`ocrag bench on ${repos.join(', ')} (${new Date().toISOString()})`);
const rows = [];
for (const repo of repos) {
  const row = await benchRepo(path.resolve(repo));
  console.log(JSON.stringify(row));
  rows.push(row);
}
console.table(rows);
const biggest = repos[repos.length - 1];
// isomorphic-git reads no alternates, which `git clone --shared` copies (the bench's own clones) rely on.
const gitAccess = await measureGitAccess(biggest).catch((e: unknown) => `skipped: isomorphic-git cannot read ${biggest} (${(e as Error).message})`);
console.log('git access (ls-tree + cat-file --batch vs isomorphic-git):', typeof gitAccess === 'string' ? gitAccess : JSON.stringify(gitAccess));
console.log('embedding throughput:', JSON.stringify(await measureEmbedding(biggest)));
