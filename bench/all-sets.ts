// npm run eval:all -- --out DIR [--against DIR] [--set key=value ...] [--only a,b]: every retrieval set, one table.
//
// The rule for a ranking or chunking change (docs/retrieval.md): run every set before and after, keep the change
// when the mean of the headline deltas rises, no set falls beyond its noise (the 95 % interval of its paired
// difference lies wholly below zero) and at least one rises beyond it (wholly above zero). This runs each set's own eval with the same settings, keeps each one's
// per-question rows in DIR (so a later run compares against it without running the old build again), and prints
// each headline number with its bootstrap interval; with --against, the paired difference of each and the verdict.
//
//   --out DIR          where the rows and each eval's own output go (made if missing)
//   --against DIR      the rows of an earlier run (the build before the change): paired differences and the verdict
//   --set key=value    a ranking setting for every set (repeatable), e.g. --set howToProse=0.5
//   --only a,b         some sets: public-en, public-zh, devset, long, docs, history
//   --rows-only        compare DIR with --against without running anything
//
// Checkouts are each eval's own (see their headers); a missing one fails that set, and the others still run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatInterval, mean, stratified, type Interval } from './bootstrap.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** One set: how it is run, and how its rows give its headline numbers as groups of paired values. */
interface SetSpec {
  name: string;
  args: (out: string) => string[];
  /** Headline name → group → question → value (groups are resampled apart: a mean over repositories). */
  headlines: (rows: unknown) => Record<string, Groups>;
}

type Groups = Map<string, Map<string, number>>;
type Semble = { runs: { repo: string; rows: { query: string; ndcg10: number }[] }[] };
type HistoryRow = { repo: string; commit: string; subject: string; lang: string; ocrag: number };
type LongRow = { repo: string; query: string; ndcg10: number };
type DocsRow = { repo: string; item: { query: string; kind: string }; zh: boolean; fileRank: number | null };

const semble = (args: string[]): SetSpec['args'] => (out) => ['bench/eval.ts', ...args, '--out', out];
const byRepo = (d: Semble): Groups => new Map(d.runs.map((run) => [run.repo, new Map(run.rows.map((r) => [r.query, r.ndcg10]))]));
/** One group: a mean over questions. */
const pooled = (entries: [string, number][]): Groups => new Map([['all', new Map(entries)]]);
const within5 = (rank: number) => (rank > 0 && rank <= 5 ? 1 : 0);

const SETS: SetSpec[] = [
  { name: 'public-en', args: semble([]), headlines: (d) => ({ 'public benchmark, English (NDCG@10)': byRepo(d as Semble) }) },
  { name: 'public-zh', args: semble(['--annotations', path.join(ROOT, '..', 'shared', 'bench', 'annotations-zh')]), headlines: (d) => ({ 'public benchmark, Chinese (NDCG@10)': byRepo(d as Semble) }) },
  { name: 'devset', args: semble(['--devset']), headlines: (d) => ({ 'dev set (NDCG@10)': byRepo(d as Semble) }) },
  { name: 'long', args: (out) => ['bench/eval/long-queries.ts', '--out', out], headlines: (d) => ({ 'long queries (NDCG@10)': pooled((d as LongRow[]).map((r) => [`${r.repo}\0${r.query}`, r.ndcg10])) }) },
  {
    name: 'docs',
    args: (out) => ['bench/docs-eval.ts', '--out', out],
    headlines: (d) => {
      const rows = d as DocsRow[];
      const hit3 = (filter: (r: DocsRow) => boolean) => pooled(rows.filter(filter).map((r) => [`${r.repo}\0${r.zh ? 'zh' : 'en'}\0${r.item.query}`, r.fileRank !== null && r.fileRank <= 3 ? 1 : 0]));
      return { 'docs set, documents (hit@3)': hit3((r) => r.item.kind === 'docs' && !r.zh), 'docs set, code (hit@3)': hit3((r) => r.item.kind === 'code'), 'docs set, Chinese (hit@3)': hit3((r) => r.zh) };
    },
  },
  {
    name: 'history',
    args: (out) => ['bench/history/eval.ts', '--no-bm25', '--json', out],
    headlines: (d) => {
      const rows = d as HistoryRow[];
      const r5 = (lang: string) => pooled(rows.filter((r) => r.lang === lang).map((r) => [`${r.repo}\0${r.commit}\0${r.subject}`, within5(r.ocrag)]));
      return { 'history sets, English (R@5)': r5('en'), 'history sets, Chinese (R@5)': r5('zh') };
    },
  },
];

interface Options {
  out: string;
  against: string | null;
  settings: string[];
  only: string[];
  rowsOnly: boolean;
}

function parse(argv: string[]): Options {
  const o: Options = { out: '', against: null, settings: [], only: [], rowsOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const next = () => argv[++i] ?? fail(`${argv[i - 1]} needs a value`);
    if (argv[i] === '--out') o.out = next();
    else if (argv[i] === '--against') o.against = next();
    else if (argv[i] === '--set') o.settings.push(next());
    else if (argv[i] === '--only') o.only = next().split(',').filter(Boolean);
    else if (argv[i] === '--rows-only') o.rowsOnly = true;
    else fail(`unknown option ${argv[i]}`);
  }
  if (!o.out) fail('--out DIR is required');
  for (const name of o.only) if (!SETS.some((s) => s.name === name)) fail(`unknown set ${name}: ${SETS.map((s) => s.name).join(', ')}`);
  return o;
}

function fail(message: string): never {
  process.stderr.write(`eval:all: ${message}\n`);
  process.exit(2);
}

function run(set: SetSpec, o: Options): void {
  const rows = path.join(o.out, `${set.name}.json`);
  const args = ['--import', 'tsx', ...set.args(rows), ...o.settings.flatMap((s) => ['--set', s])];
  process.stderr.write(`${set.name}: node ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  fs.writeFileSync(path.join(o.out, `${set.name}.txt`), `${r.stdout}\n${r.stderr}`);
  if (r.status !== 0) process.stderr.write(`${set.name}: exited ${r.status} (see ${path.join(o.out, `${set.name}.txt`)})\n`);
}

function headlinesIn(dir: string, set: SetSpec): Record<string, Groups> | null {
  const file = path.join(dir, `${set.name}.json`);
  return fs.existsSync(file) ? set.headlines(JSON.parse(fs.readFileSync(file, 'utf8'))) : null;
}

const groupMean = (groups: number[][]) => mean(groups.filter((g) => g.length).map(mean));

function main(): void {
  const o = parse(process.argv.slice(2));
  fs.mkdirSync(o.out, { recursive: true });
  const sets = SETS.filter((s) => o.only.length === 0 || o.only.includes(s.name));
  if (!o.rowsOnly) for (const set of sets) run(set, o);
  const deltas: { name: string; delta: Interval }[] = [];
  process.stdout.write(`${'set'.padEnd(38)} ${'this run'.padEnd(22)} ${o.against ? `paired difference against ${o.against}` : ''}\n`);
  for (const set of sets) {
    const now = headlinesIn(o.out, set);
    const before = o.against ? headlinesIn(o.against, set) : null;
    if (!now) {
      process.stdout.write(`${set.name.padEnd(38)} not scored\n`);
      continue;
    }
    for (const [name, groups] of Object.entries(now)) {
      const value = stratified([...groups.values()].map((g) => [...g.values()]), (gs) => ({ v: groupMean(gs) })).v;
      let compared = '';
      const old = before?.[name];
      if (old) {
        const pairs = [...groups].map(([group, g]) => [...g].flatMap(([key, y]) => (old.get(group)?.has(key) ? [[old.get(group)!.get(key)!, y] as [number, number]] : [])));
        const iv = stratified(pairs, (gs) => ({ d: groupMean(gs.map((g) => g.map(([x, y]) => y - x))), was: groupMean(gs.map((g) => g.map(([x]) => x))) }));
        deltas.push({ name, delta: iv.d });
        compared = `${iv.was.value.toFixed(3)} → ${value.value.toFixed(3)}, Δ ${formatInterval(iv.d)}${iv.d.high < 0 ? '  FALLS' : ''}`;
      }
      process.stdout.write(`${name.padEnd(38)} ${formatInterval(value).padEnd(22)} ${compared}\n`);
    }
  }
  if (deltas.length) {
    const meanDelta = mean(deltas.map((d) => d.delta.value));
    const falls = deltas.filter((d) => d.delta.high < 0).map((d) => d.name);
    const rises = deltas.filter((d) => d.delta.low > 0).map((d) => d.name);
    const keep = meanDelta > 0 && falls.length === 0 && rises.length > 0;
    const said = [falls.length ? `falls beyond noise: ${falls.join('; ')}` : 'no set falls beyond its noise', rises.length ? `rises beyond noise: ${rises.join('; ')}` : 'none rises beyond its noise'];
    process.stdout.write(`\nmean of the ${deltas.length} differences ${meanDelta >= 0 ? '+' : ''}${meanDelta.toFixed(4)}; ${said.join('; ')} → ${keep ? 'keep' : 'do not keep'}\n`);
  }
}

main();
