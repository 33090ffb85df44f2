// What the history sets' misses are made of, and two runs compared question by question, from eval.ts's rows.
//
//   node --import tsx bench/history/misses.ts ROWS.json [--lang zh|en]              the misses by kind
//   node --import tsx bench/history/misses.ts ROWS.json --against OLD.json [--lang zh]   paired R@5 and MRR
//
// ROWS.json: `eval.ts --json`. A miss is a question whose first answer is not among the top 5 files. Its kind:
//   near        the answer ranks 6–10;
//   neighbour   beyond 10, and a top-5 file sits in an answer's folder;
//   unwritten   beyond 10, and no answer file holds a word the question writes (a CJK bigram outside the words
//               that frame a task, or a Latin word of 3 letters or more outside a commit label);
//   outweighed  beyond 10, the answer holds some of them.
// Then, as `fileCoverage` counts a question's words (each by its characters or any English sense, text/zh-query.ts):
// how many the answer holds against the best other top-5 file, for misses and for hits.
import fs from 'node:fs';
import path from 'node:path';
import { analyzeQuery } from '../../src/search/query.js';
import { stem } from '../../src/text/stem.js';
import { CHINESE_CHANGE_FRAME_WORDS } from '../../src/text/stop-words.js';
import { codeTerms } from '../../src/text/terms.js';
import { loadZhLexicon } from '../../src/text/zh-lexicon.js';
import { readFlags } from '../eval/settings.js';
import { bootstrap, formatInterval } from '../bootstrap.js';
import { scores } from './score.js';
import { checkoutDir } from './sets.js';

interface Row { repo: string; commit: string; subject: string; lang: 'en' | 'zh'; answers: string[]; ocrag: number; top: string[] }

const LABEL = /^(fix|feat|opt|perf|refactor|style|chore|fixed|bug|enhancement|docs|test|update)$/i;
const inTop5 = (r: Row) => r.ocrag >= 1 && r.ocrag <= 5;

const texts = new Map<string, string>();
function text(repo: string, file: string): string {
  const key = `${repo}\n${file}`;
  if (!texts.has(key)) {
    let t = '';
    try { t = fs.readFileSync(path.join(checkoutDir({ repo }), file), 'utf8'); } catch { /* gone since: holds nothing */ }
    texts.set(key, t);
  }
  return texts.get(key)!;
}

function bigrams(s: string): string[] {
  const out = new Set<string>();
  for (const run of s.match(/\p{Script=Han}+/gu) ?? []) for (let i = 0; i + 1 < run.length; i++) out.add(run.slice(i, i + 2));
  return [...out].filter((b) => !CHINESE_CHANGE_FRAME_WORDS.has(b));
}

function kindOf(r: Row): string {
  if (r.ocrag >= 6) return 'near (6-10)';
  if (r.top.slice(0, 5).some((t) => r.answers.some((a) => path.dirname(a) === path.dirname(t)))) return 'neighbour (>10, top-5 file in its folder)';
  const latin = [...new Set((r.subject.match(/[A-Za-z][A-Za-z0-9_]{2,}/g) ?? []).filter((w) => !LABEL.test(w)).map((w) => w.toLowerCase()))];
  const held = r.answers.map((a) => text(r.repo, a)).join('\n');
  const lower = held.toLowerCase();
  return bigrams(r.subject).some((b) => held.includes(b)) || latin.some((w) => lower.includes(w)) ? 'outweighed (>10, holds some written words)' : 'unwritten (>10, holds no written word)';
}

async function kinds(rows: Row[]): Promise<void> {
  const misses = rows.filter((r) => !inTop5(r));
  console.log(`${rows.length} questions, ${misses.length} misses`);
  const count = (labels: string[]) => [...labels.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>())].sort();
  for (const [k, n] of count(misses.map(kindOf))) console.log(`  ${String(n).padStart(5)}  ${k}`);
  const lexicon = await loadZhLexicon();
  const terms = new Map<string, Set<string>>();
  const termsOf = (repo: string, f: string) => {
    const key = `${repo}\n${f}`;
    let held = terms.get(key);
    if (!held) terms.set(key, (held = new Set(codeTerms(text(repo, f)).map(stem))));
    return held;
  };
  const compare = rows.map((r) => {
    const concepts = analyzeQuery(r.subject, lexicon).concepts.map((c) => c.map(stem));
    const held = (f: string) => { const t = termsOf(r.repo, f); return concepts.filter((c) => c.some((x) => t.has(x))).length; };
    const answer = Math.max(...r.answers.map(held));
    const others = r.top.slice(0, 5).filter((f) => !r.answers.includes(f)).map(held);
    const best = others.length ? Math.max(...others) : -1;
    const who = inTop5(r) ? 'hits  ' : 'misses';
    const than = answer < best ? 'fewer than' : answer === best ? 'as many as' : 'more than';
    return [`${who}: the answer holds ${than} the best other top-5 file`, ...(answer <= 1 ? [`${who}: the answer holds at most one`] : [])];
  });
  console.log("The question's words as fileCoverage counts them:");
  for (const [k, n] of count(compare.flat())) console.log(`  ${String(n).padStart(5)}  ${k}`);
}

function paired(rows: Row[], old: Row[]): void {
  const key = (r: Row) => `${r.repo}\n${r.commit}\n${r.subject}`;
  const before = new Map(old.map((r) => [key(r), r]));
  const pairs = rows.filter((r) => before.has(key(r))).map((r) => [before.get(key(r))!, r] as const);
  // R@5 and MRR as the sets score them (score.ts), of the new ranks less the old, questions resampled in pairs.
  const both = (xs: (readonly [Row, Row])[]) => [scores(xs.map(([o]) => o.ocrag)), scores(xs.map(([, n]) => n.ocrag))];
  const s = bootstrap([...pairs], (xs) => { const [o, n] = both(xs); return { r5: n.r5 - o.r5, mrr: n.mrr - o.mrr }; });
  const [was, now] = both(pairs);
  const won = pairs.filter(([o, n]) => inTop5(n) && !inTop5(o)).length;
  const lost = pairs.filter(([o, n]) => inTop5(o) && !inTop5(n)).length;
  console.log(`${pairs.length} questions: R@5 ${was.r5.toFixed(3)} -> ${now.r5.toFixed(3)}, Δ ${formatInterval(s.r5)}; MRR Δ ${formatInterval(s.mrr)}; ${won} won, ${lost} lost`);
}

const [rowsFile, ...more] = process.argv.slice(2);
let lang = 'zh';
let against: string | undefined;
readFlags(more, { '--lang': (v) => (lang = v()), '--against': (v) => (against = v()) });
if (!rowsFile) throw new Error('usage: misses.ts ROWS.json [--against OLD.json] [--lang zh|en]');
const load = (file: string) => (JSON.parse(fs.readFileSync(file, 'utf8')) as Row[]).filter((r) => r.lang === lang);
if (against) paired(load(rowsFile), load(against));
else await kinds(load(rowsFile));
