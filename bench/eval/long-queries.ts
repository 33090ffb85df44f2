// npm run eval:long [-- options]: the long-query set (bench/long-queries/*.json), scored at file level.
//
// Each file holds one public repository pinned at a revision R and queries made from commits in R's history
// (subject + long body → the 1–4 source files they changed; bench/long-queries/mine.ts). Reports NDCG@10,
// hit@1 and hit@5 over the distinct files of the top 10 results, and p50/p90 latency of a search through
// CodeIndex (the store opened per call, as a CLI process does, the model already loaded).
//
//   --repos a,b        subset (by file name: attrs, jason, mockito, mod, yargs)
//   --out FILE         each query's NDCG@10 as JSON (npm run eval:all compares two runs with them)
//   --set key=value    override a ranking setting (repeatable)
//   --compare          also run with longQueries=false: the same queries read as one bag of words
//   --misses           print each query whose first target is not in the top 5
//
// Checkouts: $OCRAG_LONG_QUERIES/<name> (default /tmp/ocrag-long-queries), each at its pinned revision.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RankingConfig } from '../../src/search/rank/config.js';
import { CodeIndex } from '../../src/service/code-index.js';
import type { Manifest } from '../../src/store/manifest.js';
import { indexCheckout } from './index-checkout.js';
import { parseSetting, readFlags, repoList } from './settings.js';
import { bootstrap, formatInterval, mean } from '../bootstrap.js';

const SET_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'long-queries');
const K = 10;

interface LongQuerySet {
  name: string;
  repo: string;
  revision: string;
  queries: { commit: string; query: string; targets: string[] }[];
}

export interface LongQueryScore {
  queries: number;
  ndcg10: number;
  hit1: number;
  hit5: number;
  p50: number;
  p90: number;
  perRepo: { name: string; queries: number; ndcg10: number; hit1: number; hit5: number }[];
  /** Each query's NDCG@10 (intervals, and paired comparisons of two runs). */
  rows: { repo: string; query: string; ndcg10: number }[];
  misses: { repo: string; query: string; targets: string[]; top: string[] }[];
}

export function loadLongQuerySets(names: string[] = []): LongQuerySet[] {
  const files = fs.readdirSync(SET_DIR).filter((f) => f.endsWith('.json')).sort();
  const sets = files.map((f) => ({ name: f.replace(/\.json$/, ''), ...JSON.parse(fs.readFileSync(path.join(SET_DIR, f), 'utf8')) }) as LongQuerySet);
  const unknown = names.filter((n) => !sets.some((s) => s.name === n));
  if (unknown.length) throw new Error(`no long-query set named ${unknown.join(', ')} (known: ${sets.map((s) => s.name).join(', ')})`);
  return names.length ? sets.filter((s) => names.includes(s.name)) : sets;
}

export function checkoutOf(set: LongQuerySet): string {
  const dir = path.join(process.env.OCRAG_LONG_QUERIES ?? '/tmp/ocrag-long-queries', set.name);
  const how = `git clone https://github.com/${set.repo} ${dir} && git -C ${dir} checkout ${set.revision}`;
  if (!fs.existsSync(dir)) throw new Error(`${set.name}: no checkout at ${dir} (${how})`);
  const head = execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  if (head !== set.revision) throw new Error(`${set.name}: ${dir} is at ${head.slice(0, 12)}, the set is pinned at ${set.revision.slice(0, 12)} (git -C ${dir} checkout ${set.revision})`);
  return dir;
}

/** NDCG@10 with binary relevance over distinct files, ideal = every target at the top. */
function fileNdcg(files: string[], targets: Set<string>): number {
  let dcg = 0;
  files.slice(0, K).forEach((f, i) => (dcg += targets.has(f) ? 1 / Math.log2(i + 2) : 0));
  let ideal = 0;
  for (let i = 0; i < Math.min(K, targets.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal ? dcg / ideal : 0;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : 0;
}

export class LongQueryRunner {
  private constructor(private readonly opened: { set: LongQuerySet; index: CodeIndex; view: Manifest }[]) {}

  static async open(sets: LongQuerySet[], log: (line: string) => void): Promise<LongQueryRunner> {
    const opened = [];
    for (const set of sets) {
      const index = await CodeIndex.open(checkoutOf(set), {}, { onNotice: (m) => log(`  ${m}`) });
      await indexCheckout(index, set.name, (m) => log(`  ${m}`));
      opened.push({ set, index, view: await index.currentView({ update: false, committedOnly: true }) });
    }
    return new LongQueryRunner(opened);
  }

  async run(ranking: Partial<RankingConfig> = {}): Promise<LongQueryScore> {
    const ms: number[] = [];
    const rows: LongQueryScore['rows'] = [];
    const perRepo: LongQueryScore['perRepo'] = [];
    const misses: LongQueryScore['misses'] = [];
    // Warm-up: the model and each store's first read are not part of any latency.
    for (const { index, view } of this.opened) await index.searchView(view, 'warm up', { k: K, ranking });
    for (const { set, index, view } of this.opened) {
      let ndcg = 0;
      let hit1 = 0;
      let hit5 = 0;
      for (const q of set.queries) {
        const t0 = performance.now();
        const results = await index.searchView(view, q.query, { k: K, ranking });
        ms.push(performance.now() - t0);
        const files = [...new Set(results.map((r) => r.path))];
        const targets = new Set(q.targets);
        const own = fileNdcg(files, targets);
        rows.push({ repo: set.name, query: q.query, ndcg10: own });
        ndcg += own;
        if (targets.has(files[0] ?? '')) hit1++;
        if (files.slice(0, 5).some((f) => targets.has(f))) hit5++;
        else misses.push({ repo: set.name, query: q.query, targets: q.targets, top: files.slice(0, 5) });
      }
      const n = set.queries.length || 1;
      perRepo.push({ name: set.name, queries: set.queries.length, ndcg10: ndcg / n, hit1: hit1 / n, hit5: hit5 / n });
    }
    const queries = perRepo.reduce((a, r) => a + r.queries, 0);
    const mean = (key: 'ndcg10' | 'hit1' | 'hit5') => perRepo.reduce((a, r) => a + r[key] * r.queries, 0) / (queries || 1);
    return { queries, ndcg10: mean('ndcg10'), hit1: mean('hit1'), hit5: mean('hit5'), p50: percentile(ms, 0.5), p90: percentile(ms, 0.9), perRepo, misses, rows };
  }

  async close(): Promise<void> {
    for (const { index } of this.opened) await index.close();
  }
}

export function printLongQueries(rows: { label: string; s: LongQueryScore }[], log: (line: string) => void): void {
  const repos = rows[0]?.s.perRepo ?? [];
  log(`long queries (${rows[0]?.s.queries ?? 0} commit messages from ${repos.length} repositories; file level, query-weighted means)`);
  log(['ranking'.padEnd(22), 'NDCG@10'.padStart(7), 'hit@1'.padStart(6), 'hit@5'.padStart(6), 'p50_ms'.padStart(7), 'p90_ms'.padStart(7), ...repos.map((r) => `${r.name.slice(0, 7)}(${r.queries})`.padStart(12))].join(' '));
  for (const { label, s } of rows) {
    log([label.padEnd(22), s.ndcg10.toFixed(3).padStart(7), s.hit1.toFixed(3).padStart(6), s.hit5.toFixed(3).padStart(6), s.p50.toFixed(1).padStart(7), s.p90.toFixed(1).padStart(7), ...s.perRepo.map((r) => r.ndcg10.toFixed(3).padStart(12))].join(' '));
  }
  for (const { label, s } of rows) log(`${label}: NDCG@10 ${formatInterval(bootstrap(s.rows.map((r) => r.ndcg10), (xs) => ({ v: mean(xs) })).v)} (bootstrap 95 %, queries resampled)`);
}

async function main(): Promise<void> {
  const o = { repos: [] as string[], set: {} as Partial<RankingConfig>, compare: false, misses: false, out: '' };
  readFlags(process.argv.slice(2), {
    '--repos': (v) => (o.repos = repoList(v())),
    '--set': (v) => Object.assign(o.set, parseSetting(v())),
    '--compare': () => (o.compare = true),
    '--misses': () => (o.misses = true),
    '--out': (v) => (o.out = v()),
  });
  const runner = await LongQueryRunner.open(loadLongQuerySets(o.repos), (m) => process.stderr.write(m + '\n'));
  try {
    const rows = [];
    if (o.compare) rows.push({ label: 'one bag of words', s: await runner.run({ ...o.set, longQueries: false }) });
    rows.push({ label: Object.keys(o.set).length ? JSON.stringify(o.set) : 'weighted parts', s: await runner.run(o.set) });
    printLongQueries(rows, (l) => process.stdout.write(l + '\n'));
    if (o.out) fs.writeFileSync(o.out, JSON.stringify(rows[rows.length - 1]!.s.rows, null, 1));
    if (o.misses) for (const m of rows[rows.length - 1]!.s.misses) process.stdout.write(`${m.repo}: ${JSON.stringify(m.query.split('\n')[0])} want ${m.targets.join(' ')}\n    ${m.top.join('  ')}\n`);
  } finally {
    await runner.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    process.stderr.write((e instanceof Error ? (e.stack ?? e.message) : String(e)) + '\n');
    process.exit(1);
  });
}
