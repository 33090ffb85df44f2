// Scores of relevant top-10 hits on the semble benchmark against the top scores of off-topic queries, to choose
// search_code's default relevance cut-off (see src/search/relevance.ts).
//   node --import tsx bench/relevance-scores.ts [--annotations DIR] [--repos a,b]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadHarness } from './eval/harness.js';
import { RepoSession } from './eval/repo-session.js';
import { readFlags, repoList } from './eval/settings.js';
import fs from 'node:fs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Questions no code repository of the benchmark answers: recipes, trivia, hobbies, keyboard noise, Chinese. */
export const OFF_TOPIC = [
  'chocolate cake recipe with fresh strawberries',
  'who won the football world cup in 1998',
  'best hiking trails in northern norway',
  'how to knit a wool sweater for winter',
  'symptoms of the common cold in children',
  '玫瑰花的种植方法',
  'medieval castle architecture and moats',
  'guitar chord progression in e minor',
  'migratory patterns of arctic terns',
  'how to bake sourdough bread at home',
  'poems by emily dickinson about death',
  'volcano eruption in iceland last year',
  'origami crane folding instructions',
  'wedding dress shopping tips',
  'xylophone zebra quasar marmalade',
  'asdkjh qwpoeiru zxmcnv',
  'plant tomatoes in the spring garden',
  'what is the capital of mongolia',
  '今天天气怎么样',
  'how many legs does a spider have',
];

function quantiles(values: number[]): string {
  const v = [...values].sort((a, b) => a - b);
  const q = (p: number) => v[Math.min(v.length - 1, Math.floor(p * v.length))]?.toFixed(3) ?? '-';
  return `n=${v.length} min ${q(0)} p1 ${q(0.01)} p5 ${q(0.05)} p10 ${q(0.1)} p50 ${q(0.5)} p90 ${q(0.9)} max ${v.at(-1)?.toFixed(3) ?? '-'}`;
}

async function main(): Promise<void> {
  let annotations: string | undefined;
  let names: string[] = [];
  readFlags(process.argv.slice(2), { '--annotations': (v) => (annotations = path.resolve(v())), '--repos': (v) => (names = repoList(v())) });
  const h = await loadHarness(ROOT);
  const relevant: number[] = [];
  const relevantTop1: number[] = [];
  const offTop: number[] = [];
  const rows: object[] = [];
  const cuts = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4];
  const kept = new Map(cuts.map((c) => [c, { relevantKept: 0, offDropped: 0 }]));
  for (const repo of h.selectRepos(h.loadRepos(), names)) {
    const s = await RepoSession.open(h, repo, { annotations, log: (m) => process.stderr.write(`${m}\n`) });
    try {
      for (const task of s.tasks) {
        const hits = await s.explain(task.query, 10);
        for (const [i, x] of hits.entries()) rows.push({ repo: repo.name, q: task.query, off: false, rank: i, cos: x.candidate.cosine, bm25: x.candidate.bm25, score: x.score, rel: h.scoreQuery([{ path: x.file.path, start: x.candidate.chunk.startLine, end: x.candidate.chunk.endLine }], task).ranks.length > 0 });
        const results = await s.searchAsUser(task.query, 10);
        let first = true;
        for (const r of results) {
          const hit = h.scoreQuery([{ path: r.path, start: r.startLine, end: r.endLine }], task).ranks.length > 0;
          if (!hit) continue;
          relevant.push(r.score);
          if (first) relevantTop1.push(r.score);
          first = false;
        }
      }
      const offScores: number[] = [];
      for (const query of OFF_TOPIC) {
        offScores.push((await s.searchAsUser(query, 10))[0]?.score ?? 0);
        const hits = await s.explain(query, 10);
        for (const [i, x] of hits.entries()) rows.push({ repo: repo.name, q: query, off: true, rank: i, cos: x.candidate.cosine, bm25: x.candidate.bm25, score: x.score, rel: false });
      }
      offTop.push(...offScores);
      process.stdout.write(`${repo.name.padEnd(9)} off-topic top-1 ${quantiles(offScores)}\n`);
    } finally {
      await s.close();
    }
  }
  for (const c of cuts) {
    const k = kept.get(c)!;
    k.relevantKept = relevant.filter((x) => x >= c).length;
    k.offDropped = offTop.filter((x) => x < c).length;
  }
  process.stdout.write(`relevant top-10 hits  ${quantiles(relevant)}\n`);
  process.stdout.write(`first relevant hit    ${quantiles(relevantTop1)}\n`);
  process.stdout.write(`off-topic top-1       ${quantiles(offTop)}\n`);
  if (process.env.RELEVANCE_ROWS) fs.writeFileSync(process.env.RELEVANCE_ROWS, JSON.stringify(rows));
  for (const [c, k] of kept) process.stdout.write(`cut ${c.toFixed(2)}: keeps ${k.relevantKept}/${relevant.length} relevant hits, answers "no good match" to ${k.offDropped}/${offTop.length} off-topic queries\n`);
}

await main();
