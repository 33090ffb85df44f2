// node --import tsx bench/scale.ts [--files 50000] [--repo DIR] [--queries 40] [--keep] [--resident]
// Indexing and search at monorepo size on a synthetic repository (fixtures/synthetic-repo.ts, committed with
// git fast-import): index time and throughput, peak RSS of the index process (GNU time -v), store size, then
// search latency: the CLI (a new process per query), a long-lived CodeIndex (what `ocrag mcp` keeps), and
// LanceDB's own vector search without and with an IVF_RQ index (with recall@10 against exact search).
// Slow (tens of minutes at 50,000 files on 2 cores); not part of npm test. Prints numbers; asserts only the RSS budget.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as lancedb from '@lancedb/lancedb';
import { writeSyntheticRepo } from '../fixtures/synthetic-repo.js';
import { loadEmbedder } from '../src/embed/index.js';
import { CodeIndex } from '../src/service/code-index.js';
import { dirSize } from '../src/util/dir-size.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const FILES = Number(option('--files') ?? 50_000);
const QUERIES_N = Number(option('--queries') ?? 40);
const RSS_BUDGET_MB = 1536;
const NPROBES = 20;
const QUERIES = [
  'validate the payment invoice', 'retry a failed webhook delivery', 'parse the session token', 'schedule a report export', 'resolve the tenant quota',
  'flush the message queue', 'render the dashboard widget', 'sync the warehouse stock', 'encode the upload digest', 'verify the partner contract',
  'cancel the shipment order', 'track the release pipeline', 'normalize the locale format', 'refresh the cache snapshot', 'store the audit journal',
  'lookup the customer profile', 'split the batch transfer', 'publish the topic event', 'compute the price limit', 'register the device token',
];

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const ms = (v: number) => `${v.toFixed(1)} ms`;
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const summary = (values: number[]) => `p50 ${ms(percentile(values, 50))}  p90 ${ms(percentile(values, 90))}  (n=${values.length})`;

/** Runs the CLI under GNU time: its exit, wall seconds and peak RSS in bytes. */
function timed(cliArgs: string[], cwd: string): { stdout: string; seconds: number; maxRss: number } {
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, CLI, ...cliArgs], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`ocrag ${cliArgs.join(' ')}: ${r.stderr}`);
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? NaN) * 1024;
  const [, h, m, s] = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr) ?? [];
  return { stdout: r.stdout, seconds: Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s), maxRss: rss };
}

async function repository(): Promise<string> {
  const given = option('--repo');
  if (given && fs.existsSync(path.join(given, '.git'))) return given;
  const repo = given ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-scale-')), 'repo');
  const started = performance.now();
  await writeSyntheticRepo(repo, { files: FILES, seed: 42 });
  console.log(`generated    ${FILES} files in ${((performance.now() - started) / 1000).toFixed(1)} s (fast-import + checkout): ${mb(dirSize(repo) - dirSize(path.join(repo, '.git')))} of source, .git ${mb(dirSize(path.join(repo, '.git')))}`);
  return repo;
}

async function lanceSearch(repo: string, vectors: Float32Array[]): Promise<void> {
  const db = await lancedb.connect(path.join(repo, '.ocrag', 'lance'));
  // Vectors live once per distinct content (the store's `contents` table), keyed by content_key.
  const table = await db.openTable('contents');
  const rows = await table.countRows();
  const search = async (v: Float32Array, indexed: boolean) => {
    const q = table.vectorSearch(v).distanceType('cosine').limit(10).select(['content_key', '_distance']);
    return (await (indexed ? q.nprobes(NPROBES).refineFactor(5) : q.bypassVectorIndex()).toArray()).map((r) => r.content_key as string);
  };
  const run = async (indexed: boolean) => {
    const times: number[] = [];
    const ids: string[][] = [];
    await search(vectors[0], indexed);
    for (const v of vectors) {
      const t = performance.now();
      ids.push(await search(v, indexed));
      times.push(performance.now() - t);
    }
    return { times, ids };
  };
  const flat = await run(false);
  console.log(`lance flat   exact vector search over ${rows} chunks: ${summary(flat.times)}`);
  // The indexer builds the vector index once a view passes LARGE_VIEW_CHUNKS; build it here only if it did not.
  let built = 'built by the index run';
  if (!(await table.listIndices()).some((i) => i.columns.includes('vector'))) {
    const started = performance.now();
    const partitions = Math.max(1, Math.round(rows / 4096));
    await table.createIndex('vector', { config: lancedb.Index.ivfRq({ numPartitions: partitions, distanceType: 'cosine', maxIterations: 20 }) });
    built = `built here in ${((performance.now() - started) / 1000).toFixed(1)} s`;
  }
  const ann = await run(true);
  const recall = ann.ids.reduce((n, got, i) => n + got.filter((id) => flat.ids[i].includes(id)).length, 0) / (10 * ann.ids.length);
  console.log(`lance IVF_RQ ${built}; ${summary(ann.times)}; recall@10 ${recall.toFixed(3)} against exact (nprobes ${NPROBES}, refine 5)`);
  table.close();
  db.close();
}

/**
 * A long-lived index's first search and then QUERIES_N more, as `ocrag mcp` serves them: the view (manifest and
 * work tree) is kept while nothing changes, so each query is the search alone. Queries are made distinct so no
 * cached query vector is reused.
 */
async function warmSearches(repo: string, label: string): Promise<void> {
  const index = await CodeIndex.open(repo, {}, {}, { keepStoreOpen: true });
  try {
    let t = performance.now();
    const view = await index.currentView({ update: false });
    await index.searchView(view, QUERIES[0], { k: 10 });
    const first = performance.now() - t;
    const warm: number[] = [];
    for (let i = 0; i < QUERIES_N; i++) {
      t = performance.now();
      await index.searchView(view, `${QUERIES[i % QUERIES.length]} ${i}`, { k: 10 });
      warm.push(performance.now() - t);
    }
    console.log(`${label}: view + first search ${ms(first)}, then ${summary(warm)}, RSS ${mb(process.memoryUsage().rss)}`);
  } catch (e) {
    console.log(`${label}: FAILED: ${(e as Error).message}`);
    process.exitCode = 1;
  } finally {
    await index.close();
  }
}

async function main(): Promise<void> {
  console.log(`machine      ${os.cpus().length} cores, ${mb(os.totalmem())} RAM, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const repo = await repository();
  if (!args.includes('--reuse-index')) fs.rmSync(path.join(repo, '.ocrag'), { recursive: true, force: true });

  const index = timed(['index', '--json'], repo);
  const s = JSON.parse(index.stdout) as { files: number; newBlobs: number; chunksEmbedded: number; chunksTotal: number | null };
  const store = dirSize(path.join(repo, '.ocrag'));
  console.log(`index        ${s.files} files, ${s.chunksEmbedded} chunks embedded (${s.chunksTotal} stored) in ${index.seconds.toFixed(1)} s: ${(s.files / index.seconds).toFixed(0)} files/s, ${(s.chunksEmbedded / index.seconds).toFixed(0)} chunks/s`);
  console.log(`peak RSS     ${mb(index.maxRss)} (budget ${RSS_BUDGET_MB} MB: ${index.maxRss <= RSS_BUDGET_MB * 2 ** 20 ? 'ok' : 'OVER'})`);
  console.log(`store        ${mb(store)} on disk (${(store / Math.max(1, s.chunksTotal ?? 1)).toFixed(0)} bytes per chunk)`);
  const marker = path.join(repo, '.ocrag', 'search-indexes.json');
  console.log(`search path  ${fs.existsSync(marker) ? "the store's indexes (IVF_RQ vectors + full text): a large store" : 'in memory (resident set): below the large-store threshold'}`);
  const noop = timed(['index', '--json'], repo);
  console.log(`re-index     unchanged tree: ${noop.seconds.toFixed(2)} s`);

  const cli: number[] = [];
  let cliRss = 0;
  const failures: string[] = [];
  for (const q of QUERIES.slice(0, Math.min(QUERIES.length, Math.max(3, Math.floor(QUERIES_N / 4))))) {
    try {
      const r = timed(['search', '--no-update', q, '-k', '10'], repo);
      cli.push(r.seconds * 1000);
      cliRss = Math.max(cliRss, r.maxRss);
      console.log(`  cli search "${q}": ${(r.seconds * 1000).toFixed(0)} ms, RSS ${mb(r.maxRss)}`);
    } catch (e) {
      failures.push(`"${q}": ${(e as Error).message.split('\n')[0]}`);
    }
  }
  console.log(`search CLI   a new process per query: ${cli.length ? `${summary(cli)}, peak RSS ${mb(cliRss)}` : 'no query answered'}${failures.length ? `; ${failures.length} FAILED, first: ${failures[0]}` : ''}`);
  if (failures.length) process.exitCode = 1;

  await warmSearches(repo, 'search warm  long-lived CodeIndex (as ocrag mcp)');
  if (args.includes('--resident') && fs.existsSync(marker)) {
    // The in-memory path at this size, for comparison: what the large-store threshold spares a server.
    fs.renameSync(marker, `${marker}.off`);
    try {
      await warmSearches(repo, 'in memory    long-lived, without the store indexes');
    } finally {
      fs.renameSync(`${marker}.off`, marker);
      fs.rmSync(path.join(repo, '.ocrag', 'resident'), { recursive: true, force: true });
    }
  }

  process.env.OCRAG_CACHE ??= path.join(os.homedir(), '.cache', 'ocrag');
  const embedder = await loadEmbedder('default');
  const vectors = await Promise.all(Array.from({ length: QUERIES_N }, (_, i) => embedder.embedQuery(`${QUERIES[i % QUERIES.length]} ${i}`)));
  await embedder.close();
  await lanceSearch(repo, vectors);
  if (!args.includes('--keep') && !option('--repo')) fs.rmSync(path.dirname(repo), { recursive: true, force: true });
  else console.log(`repository   kept at ${repo}`);
  if (index.maxRss > RSS_BUDGET_MB * 2 ** 20) process.exitCode = 1;
}

await main();
