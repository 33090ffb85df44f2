// Scores relevance rules on the rows bench/off-topic/collect.ts wrote: for each rule and threshold, the share of
// off-topic questions answered "no good match", the relevant top-10 hits lost per set, and the long queries with
// a relevant hit that would be silenced. The threshold is chosen on one half of the questions (even positions: the
// least at which 90 % of that half's off-topic questions get "no good match", kept only if that half loses at most
// 1 % of its relevant hits and silences no long query) and checked on the other half.
//
//   node --import tsx bench/off-topic/choose.ts /tmp/relevance-rows.json
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MIN_MATCH, MATCH_RULE, matchScore, type MatchRule } from '../../src/search/relevance.js';
import type { Row } from './collect.js';

const QUESTIONS: Set<string> = new Set(JSON.parse(fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'questions.json'), 'utf8')).questions);

interface Rule {
  name: string;
  rule: MatchRule;
}

const rule = (shareWeight: number, shareCap: number, shareFloor: number): Rule => ({ name: `w=${shareWeight} cap=${shareCap} floor=${shareFloor}`, rule: { shareWeight, shareCap, shareFloor } });

/** The row's best match score; a query naming a definition the view holds always answers (relevance.ts). */
const best = (r: Rule, row: Row) => (row.named ? Infinity : Math.max(0, ...row.hits.map((_, i) => matchScore({ weights: row.weights, found: row.hits.map((h) => h.found), cosines: row.hits.map((h) => h.cos), absentWeight: row.absent }, i, r.rule))));

interface Outcome {
  offNoMatch: number;
  offN: number;
  lost: Record<string, [number, number]>;
  longSilenced: string[];
}

function measure(rows: Row[], scores: number[], t: number): Outcome {
  const o: Outcome = { offNoMatch: 0, offN: 0, lost: {}, longSilenced: [] };
  rows.forEach((r, i) => {
    const silenced = scores[i]! < t;
    if (r.off) {
      if (r.set !== 'public') return;
      o.offN++;
      if (silenced) o.offNoMatch++;
      return;
    }
    const rel = r.hits.filter((h) => h.rel).length;
    const l = (o.lost[r.set] ??= [0, 0]);
    l[1] += rel;
    if (silenced) l[0] += rel;
    if (silenced && rel > 0 && r.set === 'long') o.longSilenced.push(`${r.repo}: ${r.query.split('\n')[0]!.slice(0, 70)}`);
  });
  return o;
}

const pct = (a: number, b: number) => `${((100 * a) / (b || 1)).toFixed(2)} %`;
const fmt = (o: Outcome) => `off-topic no match ${pct(o.offNoMatch, o.offN)} (${o.offNoMatch}/${o.offN}); lost ${Object.entries(o.lost).map(([s, [a, b]]) => `${s} ${pct(a, b)} (${a}/${b})`).join(', ')}; long silenced ${o.longSilenced.length}`;
/** No long query silenced, and at most 1 % of the half's relevant hits lost over its sets together (a set's half holds ~150 hits: one question of two hits is 1.4 % of it). */
const acceptable = (o: Outcome) => {
  const [lost, all] = Object.values(o.lost).reduce(([x, y], [a, b]) => [x + a, y + b], [0, 0]);
  return o.longSilenced.length === 0 && lost <= 0.01 * all;
};

function halves(rows: Row[]): [Row[], Row[]] {
  const offIndex = new Map<string, number>();
  const queryIndex = new Map<string, number>();
  const side = (r: Row) => {
    const m = r.off ? offIndex : queryIndex;
    const key = r.off ? r.query : `${r.set}\u0000${r.repo}\u0000${r.query}`;
    if (!m.has(key)) m.set(key, m.size);
    return m.get(key)! % 2;
  };
  const a: Row[] = [];
  const b: Row[] = [];
  for (const r of rows) (side(r) === 0 ? a : b).push(r);
  return [a, b];
}

/** Off-topic questions answered "no good match" in this share (the issue's acceptance line) on the half that chooses. */
const TARGET = 0.9;

function main(): void {
  // Off-topic questions dropped from the list since the rows were collected are left out.
  const rows: Row[] = (JSON.parse(fs.readFileSync(process.argv[2] ?? '/tmp/relevance-rows.json', 'utf8')) as Row[]).filter((r) => !r.off || QUESTIONS.has(r.query));
  const [a, b] = halves(rows);
  const values = (name: string, fallback: number[]) => (process.env[name] ? process.env[name]!.split(',').map(Number) : fallback);
  // The shipped rule first, then a grid (W, CAP, FLOOR: comma-separated values in the environment to change it).
  const rules: { r: Rule; t?: number }[] = [{ r: { name: 'shipped', rule: MATCH_RULE }, t: DEFAULT_MIN_MATCH }];
  for (const w of values('W', [1, 1.5, 2])) for (const cap of values('CAP', [Infinity, 3, 4, 5])) for (const floor of values('FLOOR', [0, 0.5, 0.7, 0.9])) rules.push({ r: rule(w, cap, floor) });
  for (const { r, t } of rules) {
    const sa = a.map((row) => best(r, row));
    const sb = b.map((row) => best(r, row));
    // The least threshold at which half A reaches the target, if its losses are acceptable there.
    let chosen = t;
    for (let x = 0.1; chosen === undefined && x <= 0.6; x += 0.002) {
      const o = measure(a, sa, x);
      if (o.offNoMatch >= TARGET * o.offN) chosen = acceptable(o) ? x : -1;
    }
    if (chosen === undefined || chosen < 0) {
      process.stdout.write(`${r.name}: no threshold reaches ${TARGET * 100} % on half A within the losses\n`);
      continue;
    }
    const all = rows.map((row) => best(r, row));
    process.stdout.write(`${r.name} t=${chosen.toFixed(3)}\n  half A: ${fmt(measure(a, sa, chosen))}\n  half B: ${fmt(measure(b, sb, chosen))}\n  all:    ${fmt(measure(rows, all, chosen))}\n`);
    for (const s of measure(rows, all, chosen).longSilenced) process.stdout.write(`    silenced ${s}\n`);
  }
}

main();
