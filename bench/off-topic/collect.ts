// What the relevance rule reads of every answer, for every question of every set: the semble benchmark (English
// and Chinese), the dev set, the long-query set, and the off-topic questions asked of each of their repositories.
// bench/off-topic/choose.ts then scores rules on these rows without searching again.
//
//   node --import tsx bench/off-topic/collect.ts --out /tmp/relevance-rows.json [--sets public,zh,devset,long]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEVSET_DIR } from '../devset/checkout.js';
import { loadHarness, withRepoSet, type Harness, type BenchRepo, type Task } from '../eval/harness.js';
import { checkoutOf, loadLongQuerySets } from '../eval/long-queries.js';
import { RepoSession } from '../eval/repo-session.js';
import { readFlags } from '../eval/settings.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const K = 10;

export interface Row {
  set: string;
  repo: string;
  query: string;
  off: boolean;
  weights: number[];
  named: boolean;
  absent: number;
  hits: { cos: number; found: boolean[]; rel: boolean }[];
}

export const OFF_TOPIC: string[] = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench', 'off-topic', 'questions.json'), 'utf8')).questions;

interface SetSpec {
  name: string;
  h: Harness;
  annotations?: string;
}

async function sets(names: string[]): Promise<SetSpec[]> {
  const h = await loadHarness(ROOT);
  const dev = path.join(ROOT, 'bench', 'devset');
  const long = loadLongQuerySets();
  const longH: Harness = {
    ...h,
    loadRepos: () => long.map((s) => ({ name: s.name, language: '' })),
    checkoutDir: (repo: BenchRepo) => checkoutOf(long.find((s) => s.name === repo.name)!),
    rootOf: () => '.',
    loadTasks: (repo: BenchRepo): Task[] => long.find((s) => s.name === repo.name)!.queries.map((q) => ({ query: q.query, category: 'long', targets: q.targets.map((t) => ({ path: t, start: null, end: null })) })),
  };
  const all: SetSpec[] = [
    { name: 'public', h },
    { name: 'zh', h, annotations: path.join(h.dir, 'annotations-zh') },
    { name: 'devset', h: withRepoSet(h, { reposFile: path.join(dev, 'repos.json'), checkouts: DEVSET_DIR }), annotations: path.join(dev, 'annotations') },
    { name: 'long', h: longH },
  ];
  return all.filter((s) => names.includes(s.name));
}

async function main(): Promise<void> {
  let out = '/tmp/relevance-rows.json';
  let names = ['public', 'zh', 'devset', 'long'];
  readFlags(process.argv.slice(2), { '--out': (v) => (out = v()), '--sets': (v) => (names = v().split(',')) });
  const rows: Row[] = [];
  for (const spec of await sets(names)) {
    for (const repo of spec.h.selectRepos(spec.h.loadRepos(), [])) {
      const s = await RepoSession.open(spec.h, repo, { annotations: spec.annotations, log: (m) => process.stderr.write(`${m}\n`) });
      try {
        const ask = async (query: string, task?: Task) => {
          const { hits, evidence } = await s.explainMatch(query, K);
          const rel = (i: number) => !!task && spec.h.scoreQuery([{ path: hits[i]!.file.path, start: hits[i]!.candidate.chunk.startLine, end: hits[i]!.candidate.chunk.endLine }], task).ranks.length > 0;
          rows.push({ set: spec.name, repo: repo.name, query, off: !task, weights: evidence.weights, named: evidence.namesDefinition, absent: evidence.absentWeight, hits: hits.map((_, i) => ({ cos: evidence.cosines[i]!, found: evidence.found[i]!, rel: rel(i) })) });
        };
        for (const task of s.tasks) await ask(task.query, task);
        // The off-topic questions once per repository (the Chinese set shares the English set's repositories).
        if (spec.name !== 'zh') for (const q of OFF_TOPIC) await ask(q);
        process.stderr.write(`${spec.name}/${repo.name}: ${s.tasks.length} questions\n`);
      } finally {
        await s.close();
      }
    }
  }
  fs.writeFileSync(out, JSON.stringify(rows));
}

await main();
