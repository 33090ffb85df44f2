// Tables: ours beside the published columns per repository, per category, overall; ablation rows.
import type { Harness, RepoSummary } from './harness.js';
import type { RepoRun } from './repo-session.js';
import { formatInterval, stratified } from '../bootstrap.js';

const PUBLISHED = [
  ['unranked-bm25', 'bm25'],
  ['coderankembed', 'CRE'],
  ['coderankembed-hybrid', 'CRE+bm25'],
  ['semble-auto', 'semble'],
  ['semble-hybrid', 'semble-h'],
] as const;

export interface Scored {
  runs: RepoRun[];
  perRepo: (RepoSummary & { repo: string; language: string; p50: number; indexMs: number; chunks: number })[];
  overall: { ndcg10: number; by_category: Record<string, number> };
  p50: number;
  p90: number;
}

export function score(h: Harness, runs: RepoRun[]): Scored {
  const perRepo = runs.map((r) => ({ ...h.summarizeRepo(r.rows), repo: r.repo, language: r.language, p50: h.percentile(r.rows.map((x) => x.ms), 0.5) ?? 0, indexMs: r.indexMs, chunks: r.chunks }));
  const all = runs.flatMap((r) => r.rows.map((x) => x.ms));
  return { runs, perRepo, overall: h.summarizeAll(perRepo), p50: h.percentile(all, 0.5) ?? 0, p90: h.percentile(all, 0.9) ?? 0 };
}

const f3 = (v: unknown) => (typeof v === 'number' ? v.toFixed(3) : '    -');

export function printTable(h: Harness, s: Scored, log: (line: string) => void): void {
  const head = ['repo'.padEnd(9), 'lang'.padEnd(10), 'q'.padStart(3), 'ours'.padStart(6), 'Δsemble'.padStart(8), ...PUBLISHED.map(([, n]) => n.padStart(9)), 'chunks'.padStart(7), 'index_s'.padStart(8), 'p50_ms'.padStart(7)];
  log(head.join(' '));
  const pubMeans: Record<string, number[]> = {};
  for (const r of s.perRepo) {
    const pub = h.published.repos[r.repo] ?? {};
    for (const [c] of PUBLISHED) if (typeof pub[c] === 'number') (pubMeans[c] ??= []).push(pub[c] as number);
    const d = typeof pub['semble-auto'] === 'number' ? r.ndcg10 - (pub['semble-auto'] as number) : null;
    log([r.repo.padEnd(9), r.language.padEnd(10), String(r.queries).padStart(3), f3(r.ndcg10).padStart(6), (d == null ? '-' : (d >= 0 ? '+' : '') + d.toFixed(3)).padStart(8), ...PUBLISHED.map(([c]) => f3(pub[c]).padStart(9)), String(r.chunks).padStart(7), (r.indexMs / 1000).toFixed(1).padStart(8), r.p50.toFixed(1).padStart(7)].join(' '));
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const full = (c: string) => (pubMeans[c]?.length === s.perRepo.length ? mean(pubMeans[c]) : null);
  const pubSemble = full('semble-auto');
  const d = pubSemble == null ? null : s.overall.ndcg10 - pubSemble;
  const queries = s.perRepo.reduce((a, r) => a + r.queries, 0);
  const indexS = s.perRepo.reduce((a, r) => a + r.indexMs, 0) / 1000;
  log(['MEAN'.padEnd(9), `${s.perRepo.length} repos`.padEnd(10), String(queries).padStart(3), f3(s.overall.ndcg10).padStart(6), (d == null ? '-' : (d >= 0 ? '+' : '') + d.toFixed(3)).padStart(8), ...PUBLISHED.map(([c]) => f3(full(c)).padStart(9)), ''.padStart(7), indexS.toFixed(1).padStart(8), s.p50.toFixed(1).padStart(7)].join(' '));
  const spread = stratified(s.runs.map((r) => r.rows.map((x) => x.ndcg10)), (groups) => ({ ndcg10: mean(groups.map(mean)) }));
  log(`NDCG@10 ${formatInterval(spread.ndcg10)} (bootstrap 95 %: each repository's queries resampled)`);
  log(`(MEAN = mean over repos of per-repo means; published columns over the same repos; index_s = last full index of the checkout (whole repository, not only the root); query p50 ${s.p50.toFixed(1)} ms, p90 ${s.p90.toFixed(1)} ms)`);
  log('');
  const pubCats: Record<string, number[]> = {};
  for (const r of s.perRepo) {
    const cats = (h.published.repos[r.repo]?.by_category as Record<string, Record<string, number>> | undefined)?.['semble-auto@dceb3601a227'] ?? {};
    for (const [c, v] of Object.entries(cats)) (pubCats[c] ??= []).push(v);
  }
  log(`${'category'.padEnd(13)} ${'ours'.padStart(6)} ${'semble(2026-07)'.padStart(16)}`);
  for (const [c, v] of Object.entries(s.overall.by_category)) log(`${c.padEnd(13)} ${f3(v).padStart(6)} ${f3(pubCats[c] ? mean(pubCats[c]) : null).padStart(16)}`);
}

export function printAblation(rows: { label: string; s: Scored }[], log: (line: string) => void): void {
  const repos = rows[0]?.s.perRepo.map((r) => r.repo) ?? [];
  const cats = Object.keys(rows[0]?.s.overall.by_category ?? {});
  log(['config'.padEnd(28), 'NDCG@10'.padStart(7), ...cats.map((c) => c.slice(0, 6).padStart(7)), ...repos.map((r) => r.slice(0, 6).padStart(6))].join(' '));
  for (const { label, s } of rows) {
    log([label.padEnd(28), f3(s.overall.ndcg10).padStart(7), ...cats.map((c) => f3(s.overall.by_category[c]).padStart(7)), ...s.perRepo.map((r) => r.ndcg10.toFixed(2).padStart(6))].join(' '));
  }
}

export function printMisses(s: Scored, log: (line: string) => void, below = 1): void {
  for (const run of s.runs) {
    for (const row of run.rows) {
      if (row.ndcg10 >= below) continue;
      log(`${run.repo.padEnd(9)} ${row.ndcg10.toFixed(2)} [${row.category.slice(0, 4)}] ${JSON.stringify(row.query)} ranks=${JSON.stringify(row.ranks)} want ${row.targets.join(' ')}`);
      log(`    ${row.top.slice(0, 5).join('  ')}`);
    }
  }
}
