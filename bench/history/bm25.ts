// The file-level BM25 baseline of the history sets: every tracked text file of the checkout is one document.
//
// Its tokens are its own, not ocrag's (so the baseline stays put while ocrag's text handling changes): Latin words
// and identifiers, each identifier also split at camelCase, snake_case and digits, lowercased; Han text as
// overlapping character bigrams (a lone character as itself). Standard BM25, k1 = 1.2, b = 0.75.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const K1 = 1.2;
const B = 0.75;
/** Files larger than this are data or generated, and would only slow the baseline down. */
const MAX_BYTES = 1_000_000;

const HAN_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;
const WORD = /[A-Za-z_$][A-Za-z0-9_$]*|[0-9]+/g;

export function bm25Tokens(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(WORD) ?? []) {
    const lower = word.toLowerCase();
    if (lower.length > 1) out.push(lower);
    const parts = word.split(/[_$]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])/).filter(Boolean);
    if (parts.length > 1) for (const p of parts) if (p.length > 1) out.push(p.toLowerCase());
  }
  for (const run of text.match(HAN_RUN) ?? []) {
    if (run.length === 1) out.push(run);
    for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
  }
  return out;
}

export class FileBm25 {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: number[] = [];
  private avgLength = 0;

  private constructor(readonly paths: string[]) {}

  /** Every file git tracks in `dir` that reads as text (no NUL byte) and is under 1 MB. */
  static build(dir: string): FileBm25 {
    const tracked = execFileSync('git', ['-C', dir, 'ls-files', '-z'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).split('\0').filter(Boolean);
    const docs: { path: string; text: string }[] = [];
    for (const p of tracked) {
      const file = path.join(dir, p);
      let stat;
      try {
        stat = fs.lstatSync(file);
      } catch {
        continue;
      }
      if (!stat.isFile() || stat.size > MAX_BYTES) continue;
      const bytes = fs.readFileSync(file);
      if (bytes.includes(0)) continue;
      docs.push({ path: p, text: bytes.toString('utf8') });
    }
    const index = new FileBm25(docs.map((d) => d.path));
    docs.forEach((d, doc) => index.add(doc, `${d.path}\n${d.text}`));
    index.avgLength = index.lengths.reduce((a, n) => a + n, 0) / (index.lengths.length || 1);
    return index;
  }

  private add(doc: number, text: string): void {
    const counts = new Map<string, number>();
    const tokens = bm25Tokens(text);
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    this.lengths[doc] = tokens.length;
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = []));
      list.push({ doc, tf });
    }
  }

  /** The `k` best files for a query, best first. */
  search(query: string, k: number): string[] {
    const n = this.paths.length;
    const scores = new Map<number, number>();
    for (const term of new Set(bm25Tokens(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = tf + K1 * (1 - B + (B * this.lengths[doc]!) / this.avgLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / norm);
      }
    }
    return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k).map(([doc]) => this.paths[doc]!);
  }
}
