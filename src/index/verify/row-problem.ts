import { contentKey } from '../../store/content-key.js';

/** One thing wrong, with the row or mark it is wrong with. */
export interface RowProblem {
  blob: string;
  path: string | null;
  lines: [number, number] | null;
  what: string;
}

/** What a stored row says, hashed: its breadcrumb and text (by their content key) and its search words. */
export function rowSays(symbol: string, text: string, terms: string): string {
  return contentKey(contentKey(symbol, text), terms);
}

/** `src/auth.py:3-6 (blob 1a2b3c4d5e6f) has a text that is not lines 3-6 of its blob`. */
export function describeProblem(p: RowProblem): string {
  const where = p.path === null ? `blob ${p.blob.slice(0, 12)}` : `${JSON.stringify(p.path).slice(1, -1)}${p.lines ? `:${p.lines[0]}-${p.lines[1]}` : ''} (blob ${p.blob.slice(0, 12)})`;
  return `${where} ${p.what}`;
}
