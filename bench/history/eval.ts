// npm run eval:history [-- options]: the commit-history sets (bench/history/sets), file level, ocrag beside BM25.
//
// Each set's repository is checked out at its snapshot (bench/history/checkout.ts, from the `fetch`-ed copies),
// indexed in-process through CodeIndex, and every question (a commit subject) searched as a surface does; a
// question is scored by the first of its answers (the source files the commit modified) among the distinct files
// of the results. Beside it, a file-level BM25 over the same checkout (bm25.ts). English and Chinese questions are
// reported apart, then per repository; intervals are bootstrap 95 % (score.ts).
//
//   --repos a,b        subset (owner/name, owner__name or name)
//   --json FILE        per-question rows: subject, language, answers, both ranks, ocrag's top files
//   --set key=value    override a ranking setting (repeatable), e.g. --set howToProse=0.5
//   --no-bm25          ocrag only
//   --misses           print each question whose answer is not in ocrag's top 5 files, with those files
//
// Checkouts: $OCRAG_HISTORY/<owner>__<name> (default /tmp/ocrag-history); made here when missing.
import fs from 'node:fs';
import type { RankingConfig } from '../../src/search/rank/config.js';
import { CodeIndex } from '../../src/service/code-index.js';
import { indexCheckout } from '../eval/index-checkout.js';
import { parseSetting, readFlags, repoList } from '../eval/settings.js';
import { FileBm25 } from './bm25.js';
import { ensureCheckout } from './checkout.js';
import { distinctFiles, formatInterval, rankOf, scores, withIntervals } from './score.js';
import { loadSets, type HistorySet } from './sets.js';

/** Chunks asked for per question: enough for 10 distinct files in nearly every case. */
const CHUNKS = 30;

const log = (line: string) => process.stdout.write(line + '\n');
const note = (line: string) => process.stderr.write(line + '\n');

interface Row {
  repo: string;
  commit: string;
  subject: string;
  lang: 'en' | 'zh';
  answers: string[];
  ocrag: number;
  bm25: number | null;
  top: string[];
}

const LANGUAGE: Record<string, string> = { go: 'Go', py: 'Python', rs: 'Rust', js: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript', jsx: 'JavaScript', ts: 'TypeScript', tsx: 'TypeScript', vue: 'Vue', java: 'Java', kt: 'Kotlin', scala: 'Scala', rb: 'Ruby', php: 'PHP', c: 'C', h: 'C', cc: 'C++', cpp: 'C++', hpp: 'C++', cs: 'C#', swift: 'Swift', dart: 'Dart', ex: 'Elixir', exs: 'Elixir', lua: 'Lua', sh: 'Shell' };

/** The languages of a set's answers, most answered first ("Java+Vue"). */
export function languagesOf(set: HistorySet): string {
  const counts = new Map<string, number>();
  for (const q of set.questions) for (const a of q.answers) {
    const lang = LANGUAGE[a.split('.').pop()!.toLowerCase()] ?? 'other';
    counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  const total = [...counts.values()].reduce((a, n) => a + n, 0);
  return [...counts].filter(([, n]) => n >= 0.15 * total).sort((a, b) => b[1] - a[1]).map(([l]) => l).join('+');
}

async function runSet(set: HistorySet, ranking: Partial<RankingConfig>, bm25: boolean): Promise<Row[]> {
  const dir = ensureCheckout(set, note);
  const index = await CodeIndex.open(dir, {}, { onNotice: (m) => note(`  ${m}`) });
  try {
    await indexCheckout(index, set.repo, note);
    const view = await index.currentView({ update: false, committedOnly: true });
    const baseline = bm25 ? FileBm25.build(dir) : null;
    const rows: Row[] = [];
    for (const q of set.questions) {
      const files = (await index.searchView(view, q.subject, { k: CHUNKS, ranking })).map((r) => r.path);
      const bm25Rank = baseline ? rankOf(baseline.search(q.subject, 10), q.answers) : null;
      rows.push({ repo: set.repo, commit: q.commit, subject: q.subject, lang: q.lang, answers: q.answers, ocrag: rankOf(files, q.answers), bm25: bm25Rank, top: distinctFiles(files) });
    }
    return rows;
  } finally {
    await index.close();
  }
}

function summaryLines(label: string, rows: Row[], bm25: boolean): string[] {
  if (!rows.length) return [`${label}: no questions`];
  const line = (who: string, ranks: number[]) => {
    const s = withIntervals(ranks);
    return `  ${who.padEnd(6)} R@1 ${formatInterval(s.r1)}  R@5 ${formatInterval(s.r5)}  R@10 ${formatInterval(s.r10)}  MRR ${formatInterval(s.mrr)}`;
  };
  const out = [`${label} (${rows.length} questions, ${new Set(rows.map((r) => r.repo)).size} repositories)`, line('ocrag', rows.map((r) => r.ocrag))];
  if (bm25) out.push(line('BM25', rows.map((r) => r.bm25 ?? 0)));
  return out;
}

function perRepoTable(sets: HistorySet[], rows: Row[], bm25: boolean): string[] {
  const head = ['repository'.padEnd(34), 'language'.padEnd(16), 'snapshot'.padEnd(12), '  en', '  zh', 'R@5', '  MRR', ...(bm25 ? ['bm R@5', 'bm MRR'] : [])].join(' ');
  const out = [head];
  for (const set of sets) {
    const mine = rows.filter((r) => r.repo === set.repo);
    const s = scores(mine.map((r) => r.ocrag));
    const b = scores(mine.map((r) => r.bm25 ?? 0));
    const en = mine.filter((r) => r.lang === 'en').length;
    out.push([set.repo.padEnd(34), languagesOf(set).slice(0, 16).padEnd(16), set.snapshot.slice(0, 12), String(en).padStart(4), String(mine.length - en).padStart(4), s.r5.toFixed(3), s.mrr.toFixed(3).padStart(5), ...(bm25 ? [b.r5.toFixed(3).padStart(6), b.mrr.toFixed(3).padStart(6)] : [])].join(' '));
  }
  return out;
}

async function main(): Promise<void> {
  const o = { repos: [] as string[], json: null as string | null, set: {} as Partial<RankingConfig>, bm25: true, misses: false };
  readFlags(process.argv.slice(2), {
    '--repos': (v) => (o.repos = repoList(v())),
    '--json': (v) => (o.json = v()),
    '--set': (v) => Object.assign(o.set, parseSetting(v())),
    '--no-bm25': () => (o.bm25 = false),
    '--misses': () => (o.misses = true),
  });
  const sets = loadSets(o.repos);
  if (!sets.length) throw new Error('no history sets in bench/history/sets (make one with bench/history/mine.ts)');
  const rows: Row[] = [];
  const failed: string[] = [];
  for (const set of sets) {
    // One repository that cannot be indexed or searched is reported, not allowed to end the run.
    try {
      const t0 = performance.now();
      rows.push(...(await runSet(set, o.set, o.bm25)));
      note(`${set.repo}: ${set.questions.length} questions in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    } catch (e) {
      failed.push(`${set.repo}: ${e instanceof Error ? e.message : String(e)}`);
      note(`${set.repo}: FAILED ${failed[failed.length - 1]}`);
    }
  }
  const ran = sets.filter((s) => rows.some((r) => r.repo === s.repo));
  log(`commit-history sets: ${rows.length} questions over ${ran.length} repositories; file level, first answer among the distinct files; 95 % bootstrap intervals`);
  for (const f of failed) log(`not scored: ${f}`);
  if (failed.length) process.exitCode = 1;
  if (Object.keys(o.set).length) log(`ranking overrides: ${JSON.stringify(o.set)}`);
  for (const line of summaryLines('English', rows.filter((r) => r.lang === 'en'), o.bm25)) log(line);
  for (const line of summaryLines('Chinese', rows.filter((r) => r.lang === 'zh'), o.bm25)) log(line);
  log('');
  for (const line of perRepoTable(ran, rows, o.bm25)) log(line);
  if (o.misses) {
    log('');
    for (const r of rows.filter((r) => r.ocrag === 0 || r.ocrag > 5)) log(`${r.repo} [${r.lang}] ${JSON.stringify(r.subject)} want ${r.answers.join(' ')} (rank ${r.ocrag || '>10'})\n    ${r.top.slice(0, 5).join('  ')}`);
  }
  if (o.json) fs.writeFileSync(o.json, JSON.stringify(rows, null, 2) + '\n');
}

main().catch((e) => {
  note(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
