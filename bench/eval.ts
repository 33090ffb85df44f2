// npm run eval [-- options]: the semble benchmark, in-process through CodeIndex, scored by the harness's own code.
//
//   --repos a,b        subset (default: all 16 covered repositories)
//   --ablate           one row per ranking component: fusion alone, then each added, then the full stack minus each
//   --set key=value    override a ranking setting (repeatable), e.g. --set semanticShareText=0.6
//   --sweep key=a,b,c  one row per value of a ranking setting (repeatable: each key swept on its own)
//   --explain QUERY    the top 15 for QUERY in each selected repo, with each ranking component's part
//   --misses-below X  with --misses: only queries below X
//   --misses           print every query below NDCG@10 1 with its top results and targets
//   --cached           search over one store kept open (same results; the latency is then not what users see)
//   --rebuild          re-index each checkout from scratch
//   --annotations DIR  another annotation folder (e.g. one holding the harness's zod label variant as zod.json)
//   --out FILE         write per-query rows as JSON
//   --whole            results show their whole chunks (as before long ones were cut to the part that answers)
//   --repos-file FILE  another repository list (repos.json format); --checkouts DIR: their checkouts (DIR/<name>)
//   --devset           the second dev set: bench/devset's repos.json and annotations, checkouts in $OCRAG_DEVSET
//                      (default /tmp/ocrag-devset, made by bench/devset/checkout.ts)
//   --long             also the long-query set (bench/eval/long-queries.ts, checkouts in $OCRAG_LONG_QUERIES)
//
// Checkouts: $SEMBLE_BENCH/<name> (default /tmp/semble-bench), made by the harness's checkout.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RANKING, type RankingConfig } from '../src/search/rank/config.js';
import { RANKING_SIGNALS } from '../src/search/rank/signals/index.js';
import { DEVSET_DIR } from './devset/checkout.js';
import { loadHarness, withRepoSet } from './eval/harness.js';
import { printAblation, printMisses, printTable, score, type Scored } from './eval/report.js';
import { LongQueryRunner, loadLongQuerySets, printLongQueries } from './eval/long-queries.js';
import { RepoSession } from './eval/repo-session.js';
import { printTokens, TOKEN_DEPTH, tokenRow, type TokenRow } from './eval/tokens.js';
import { parseSetting, parseSweep, readFlags, repoList } from './eval/settings.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (line: string) => process.stdout.write(line + '\n');
const note = (line: string) => process.stderr.write(line + '\n');

interface Options {
  repos: string[];
  ablate: boolean;
  misses: boolean;
  missesBelow: number;
  cached: boolean;
  rebuild: boolean;
  out: string | null;
  set: Partial<RankingConfig>;
  sweep: Partial<RankingConfig>[][];
  explain: string | null;
  annotations?: string;
  whole: boolean;
  reposFile?: string;
  checkouts?: string;
  long: boolean;
}

function devset(): Pick<Options, 'annotations' | 'reposFile' | 'checkouts'> {
  const dir = path.join(ROOT, 'bench', 'devset');
  return { annotations: path.join(dir, 'annotations'), reposFile: path.join(dir, 'repos.json'), checkouts: DEVSET_DIR };
}

function parseArgs(argv: string[]): Options {
  const o: Options = { repos: [], ablate: false, misses: false, missesBelow: 1, cached: false, rebuild: false, out: null, set: {}, sweep: [], explain: null, whole: false, long: false };
  readFlags(argv, {
    '--repos': (v) => (o.repos = repoList(v())),
    '--ablate': () => (o.ablate = true),
    '--explain': (v) => (o.explain = v()),
    '--misses': () => (o.misses = true),
    '--misses-below': (v) => (o.missesBelow = Number(v())),
    '--cached': () => (o.cached = true),
    '--rebuild': () => (o.rebuild = true),
    '--out': (v) => (o.out = v()),
    '--annotations': (v) => (o.annotations = path.resolve(v())),
    '--repos-file': (v) => (o.reposFile = path.resolve(v())),
    '--checkouts': (v) => (o.checkouts = path.resolve(v())),
    '--devset': () => Object.assign(o, devset()),
    '--whole': () => (o.whole = true),
    '--set': (v) => Object.assign(o.set, parseSetting(v())),
    '--sweep': (v) => o.sweep.push(parseSweep(v())),
    '--long': () => (o.long = true),
  });
  return o;
}

/**
 * Cumulative rows (fusion alone, then the symbol-table candidates and each signal of the list that is on added in
 * turn), leave-one-out rows of the full stack, and rows adding the signals that are off by default.
 */
function ablations(base: Partial<RankingConfig>, signals: typeof RANKING_SIGNALS): { label: string; ranking: Partial<RankingConfig> }[] {
  const full = { ...DEFAULT_RANKING, ...base };
  const components: (keyof RankingConfig)[] = ['symbols', ...signals.map((s) => s.name)];
  const fusionOnly: Partial<RankingConfig> = Object.fromEntries(components.map((c) => [c, false]));
  const on = components.filter((c) => full[c] === true);
  const off = components.filter((c) => full[c] === false);
  const rows: { label: string; ranking: Partial<RankingConfig> }[] = [
    { label: 'BM25 only, no ranking', ranking: { ...base, ...fusionOnly, dense: false } },
    { label: 'vectors only, no ranking', ranking: { ...base, ...fusionOnly, lexical: false } },
    { label: 'fusion alone', ranking: { ...base, ...fusionOnly } },
  ];
  let acc: Partial<RankingConfig> = { ...base, ...fusionOnly };
  for (const step of on) {
    acc = { ...acc, [step]: true };
    rows.push({ label: `+ ${step}`, ranking: acc });
  }
  for (const step of [...on, 'lexical', 'dense'] as (keyof RankingConfig)[]) rows.push({ label: `full - ${step}`, ranking: { ...base, [step]: false } });
  for (const step of off) rows.push({ label: `full + ${step}`, ranking: { ...base, [step]: true } });
  rows.push({ label: `full, ${full.fusion === 'rrf' ? 'blend' : 'rrf'} fusion`, ranking: { ...base, fusion: full.fusion === 'rrf' ? 'blend' : 'rrf' } });
  rows.push({ label: `full, ${full.lexicalEngine === 'fts' ? 'resident bm25' : 'LanceDB FTS'}`, ranking: { ...base, lexicalEngine: full.lexicalEngine === 'fts' ? 'bm25' : 'fts' } });
  return rows;
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const h = withRepoSet(await loadHarness(ROOT), o);
  const repos = h.selectRepos(h.loadRepos(), o.repos);
  const sessions: RepoSession[] = [];
  for (const repo of repos) {
    note(`${repo.name}: opening ${h.checkoutDir(repo)}`);
    sessions.push(await RepoSession.open(h, repo, { rebuild: o.rebuild, annotations: o.annotations, whole: o.whole, log: note }));
  }
  try {
    const runAll = async (ranking: Partial<RankingConfig>, mode: 'user' | 'cached'): Promise<Scored> => {
      const runs = [];
      for (const s of sessions) runs.push(await s.run(h, 10, mode, ranking));
      return score(h, runs);
    };
    if (o.explain) {
      for (const s of sessions) {
        log(`${s.repo.name}: ${JSON.stringify(o.explain)}  want ${s.tasks.find((t) => t.query === o.explain)?.targets.map((t) => t.path).join(' ') ?? '?'}`);
        for (const h of await s.explain(o.explain, 15, o.set)) {
          const parts = Object.entries(h.parts).map(([name, v]) => `${name} ${v.toFixed(2)}`).join(' ');
          log(`  ${h.score.toFixed(3)} base ${h.base.toFixed(3)} cos ${h.candidate.cosine.toFixed(3)} bm25 ${h.candidate.bm25.toFixed(1)} ${parts}  ${h.file.path}:${h.candidate.chunk.startLine}-${h.candidate.chunk.endLine} ${h.candidate.chunk.symbol}`);
        }
      }
      return;
    }
    // Warm-up: the model, LanceDB's caches and the FTS index load once; not part of any latency.
    for (const s of sessions) await s.searchAsUser(s.tasks[0]?.query ?? 'warm up', 10);
    const main = await runAll(o.set, o.cached ? 'cached' : 'user');
    log(`ocrag on the semble benchmark (${sessions.length} repos), ranking ${JSON.stringify({ ...DEFAULT_RANKING, ...o.set })}`);
    printTable(h, main, log);
    log('');
    const tokens: TokenRow[] = [];
    for (const s of sessions) for (const task of s.tasks) tokens.push(tokenRow(h, s.repo.name, task, await s.searchCached(task.query, TOKEN_DEPTH, o.set)));
    printTokens(tokens, log);
    if (o.misses) {
      log('');
      printMisses(main, log, o.missesBelow);
    }
    if (o.long) {
      log('');
      const runner = await LongQueryRunner.open(loadLongQuerySets(), note);
      printLongQueries([{ label: 'ranking above', s: await runner.run(o.set).finally(() => runner.close()) }], log);
    }
    if (o.out) fs.writeFileSync(o.out, JSON.stringify({ overall: main.overall, perRepo: main.perRepo, runs: main.runs, tokens }, null, 2) + '\n');
    for (const values of o.sweep) {
      log('');
      const rows = [];
      for (const v of values) rows.push({ label: JSON.stringify(v).slice(1, -1), s: await runAll({ ...o.set, ...v }, 'cached') });
      printAblation(rows, log);
    }
    if (o.ablate) {
      log('');
      log('ablation (store kept open; each row is the whole benchmark):');
      const rows = [];
      for (const row of ablations(o.set, RANKING_SIGNALS)) rows.push({ label: row.label, s: await runAll(row.ranking, 'cached') });
      printAblation(rows, log);
    }
  } finally {
    for (const s of sessions) await s.close();
  }
}

main().catch((e) => {
  note(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
