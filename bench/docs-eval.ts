// npm run eval:docs [-- options]: the docs benchmark (bench/docs/queries.json). Do questions a repository's
// documentation answers find that document, and do code questions over the same repositories still find code?
// Prints numbers, asserts nothing.
//
//   --repos a,b        subset (default: every repository of the query file)
//   --set key=value    override a ranking setting (repeatable), e.g. --set prosePenalty=1
//   --sweep key=a,b,c  one row per value of a ranking setting (repeatable: each key swept on its own)
//   --misses           print every question whose answer is not in the top 3, with the top results
//   --out FILE         write the per-question rows as JSON
//
// Checkouts: $OCRAG_DOCS_BENCH/<name> (default /tmp/docs-bench), each at its pinned commit; a missing one is cloned
// from $OCRAG_DOCS_MIRRORS/<owner>+<name>/repo (default /work/.mirror, as the fetch tool lays mirrors out), else
// from the repository's URL. Each checkout is indexed once (its .ocrag/ is reused by later runs).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CodeIndex } from '../src/service/code-index.js';
import { DEFAULT_RANKING, type RankingConfig } from '../src/search/rank/config.js';
import { searchManifest, storeRetriever } from '../src/search/search.js';
import { readMeta } from '../src/store/meta.js';
import { StoreHandle } from '../src/store/store-handle.js';
import { checkout, type DocsRepo } from './docs/checkout.js';
import { scoreItem, summarize, type DocsItem, type ItemRun, type Summary } from './docs/score.js';
import { indexCheckout } from './eval/index-checkout.js';
import { parseSetting, parseSweep, readFlags, repoList } from './eval/settings.js';
import { bootstrap, formatInterval } from './bootstrap.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUERIES = path.join(ROOT, 'bench', 'docs', 'queries.json');
const K = 10;
const log = (line: string) => process.stdout.write(line + '\n');
const note = (line: string) => process.stderr.write(line + '\n');

interface Options {
  repos: string[];
  set: Partial<RankingConfig>;
  sweep: Partial<RankingConfig>[][];
  misses: boolean;
  out: string | null;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { repos: [], set: {}, sweep: [], misses: false, out: null };
  readFlags(argv, {
    '--repos': (v) => (o.repos = repoList(v())),
    '--set': (v) => Object.assign(o.set, parseSetting(v())),
    '--sweep': (v) => o.sweep.push(parseSweep(v())),
    '--misses': () => (o.misses = true),
    '--out': (v) => (o.out = v()),
  });
  return o;
}

interface Session {
  repo: DocsRepo & { items: DocsItem[] };
  index: CodeIndex;
  store: StoreHandle;
  search: (query: string, ranking: Partial<RankingConfig>) => ReturnType<typeof searchManifest>;
}

async function openSession(repo: DocsRepo & { items: DocsItem[] }): Promise<Session> {
  const dir = checkout(repo, process.env.OCRAG_DOCS_BENCH ?? '/tmp/docs-bench', process.env.OCRAG_DOCS_MIRRORS ?? '/work/.mirror', note);
  const index = await CodeIndex.open(dir, {}, { onNotice: (m) => note(`  ${m}`) });
  await indexCheckout(index, repo.name, (m) => note(`  ${m}`));
  const view = await index.currentView({ update: false, committedOnly: true });
  const meta = readMeta(index.ctx.layout.meta)!;
  const store = new StoreHandle(index.ctx.layout, meta.dim, meta.createdAt);
  const retriever = storeRetriever(store, await index.model());
  return { repo, index, store, search: (query, ranking) => searchManifest(view, retriever, query, { k: K, ranking }) };
}

async function runAll(sessions: Session[], ranking: Partial<RankingConfig>): Promise<ItemRun[]> {
  const runs: ItemRun[] = [];
  for (const s of sessions) {
    for (const item of s.repo.items) {
      runs.push(scoreItem(s.repo.name, item, false, await s.search(item.query, ranking)));
      if (item.query_zh) runs.push(scoreItem(s.repo.name, item, true, await s.search(item.query_zh, ranking)));
    }
  }
  return runs;
}

const pct = (v: number) => (Number.isNaN(v) ? '    -' : (100 * v).toFixed(1).padStart(5));
const HEAD = ['docs'.padStart(4), 'hit@3'.padStart(5), 'sect@3'.padStart(6), 'MRR'.padStart(5), 'code'.padStart(4), 'hit@3'.padStart(5), 'sect@3'.padStart(6), 'zh'.padStart(3), 'hit@3'.padStart(5)];
const cells = (s: Summary) => [String(s.docs).padStart(4), pct(s.docsHit3), pct(s.docsSectionHit3).padStart(6), s.docsMrr.toFixed(3).padStart(5), String(s.code).padStart(4), pct(s.codeHit3), pct(s.codeSectionHit3).padStart(6), String(s.zh).padStart(3), pct(s.zhHit3)];

function printTable(sessions: Session[], runs: ItemRun[]): void {
  log([''.padEnd(10), ...HEAD].join(' '));
  for (const s of sessions) log([s.repo.name.padEnd(10), ...cells(summarize(runs.filter((r) => r.repo === s.repo.name)))].join(' '));
  log(['ALL'.padEnd(10), ...cells(summarize(runs))].join(' '));
  const spread = bootstrap(runs, (rs) => ({ docs: summarize(rs).docsHit3, code: summarize(rs).codeHit3, zh: summarize(rs).zhHit3 }));
  log(`hit@3 with bootstrap 95 %: docs ${formatInterval(spread.docs)}, code ${formatInterval(spread.code)}, zh ${formatInterval(spread.zh)}`);
  log('(hit@3: the answering file in the top 3, in %; sect@3: a result overlapping the answering section; MRR: of the answering file, k=10; zh: the Chinese questions, answering file in the top 3)');
}

function printMisses(runs: ItemRun[]): void {
  for (const r of runs) {
    if (r.fileRank !== null && r.fileRank <= 3) continue;
    log(`${r.repo.padEnd(8)} [${r.item.kind}${r.zh ? ' zh' : ''}] rank ${r.fileRank ?? '-'} ${JSON.stringify(r.zh ? r.item.query_zh : r.item.query)} want ${r.item.path}:${r.item.startLine}-${r.item.endLine}`);
    log(`    ${r.top.slice(0, 3).join('  ')}`);
  }
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const file = JSON.parse(fs.readFileSync(QUERIES, 'utf8')) as { repos: (DocsRepo & { items: DocsItem[] })[] };
  const repos = o.repos.length ? file.repos.filter((r) => o.repos.includes(r.name)) : file.repos;
  const sessions: Session[] = [];
  try {
    for (const repo of repos) sessions.push(await openSession(repo));
    const runs = await runAll(sessions, o.set);
    log(`ocrag on the docs benchmark (${sessions.length} repos), ranking ${JSON.stringify({ ...DEFAULT_RANKING, ...o.set })}`);
    printTable(sessions, runs);
    if (o.misses) {
      log('');
      printMisses(runs);
    }
    if (o.out) fs.writeFileSync(o.out, JSON.stringify(runs, null, 1) + '\n');
    for (const values of o.sweep) {
      log('');
      log([''.padEnd(24), ...HEAD].join(' '));
      for (const v of values) log([JSON.stringify(v).slice(1, -1).padEnd(24), ...cells(summarize(await runAll(sessions, { ...o.set, ...v })))].join(' '));
    }
  } finally {
    for (const s of sessions) {
      s.store.close();
      await s.index.close();
    }
  }
}

main().catch((e) => {
  note(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
