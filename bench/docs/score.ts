// Scores of the docs benchmark: is the answering file (and section) among the first results, and how high.
import type { SearchResult } from '../../src/search/search.js';

export interface DocsItem {
  query: string;
  query_zh?: string;
  kind: 'docs' | 'code';
  path: string;
  startLine: number;
  endLine: number;
}

export interface ItemRun {
  repo: string;
  item: DocsItem;
  zh: boolean;
  fileRank: number | null;
  sectionRank: number | null;
  top: string[];
}

export function scoreItem(repo: string, item: DocsItem, zh: boolean, results: SearchResult[]): ItemRun {
  const file = results.findIndex((r) => r.path === item.path);
  const section = results.findIndex((r) => r.path === item.path && r.startLine <= item.endLine && r.endLine >= item.startLine);
  return { repo, item, zh, fileRank: file < 0 ? null : file + 1, sectionRank: section < 0 ? null : section + 1, top: results.map((r) => `${r.path}:${r.startLine}-${r.endLine}`) };
}

export interface Summary {
  docs: number;
  docsHit3: number;
  docsSectionHit3: number;
  docsMrr: number;
  code: number;
  codeHit3: number;
  codeSectionHit3: number;
  zh: number;
  zhHit3: number;
}

const within = (rank: number | null, k: number) => rank !== null && rank <= k;
const rate = (runs: ItemRun[], hit: (r: ItemRun) => boolean) => (runs.length ? runs.filter(hit).length / runs.length : NaN);

export function summarize(runs: ItemRun[]): Summary {
  const docs = runs.filter((r) => r.item.kind === 'docs' && !r.zh);
  const code = runs.filter((r) => r.item.kind === 'code');
  const zh = runs.filter((r) => r.zh);
  return {
    docs: docs.length,
    docsHit3: rate(docs, (r) => within(r.fileRank, 3)),
    docsSectionHit3: rate(docs, (r) => within(r.sectionRank, 3)),
    docsMrr: docs.length ? docs.reduce((a, r) => a + (r.fileRank ? 1 / r.fileRank : 0), 0) / docs.length : NaN,
    code: code.length,
    codeHit3: rate(code, (r) => within(r.fileRank, 3)),
    codeSectionHit3: rate(code, (r) => within(r.sectionRank, 3)),
    zh: zh.length,
    zhHit3: rate(zh, (r) => within(r.fileRank, 3)),
  };
}
