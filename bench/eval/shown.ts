// A result as the benchmark scores it: by the lines it shows. A long chunk cut to the part that answers covers a
// target with a line span only when a shown part overlaps it (a target without lines: any result of its file).
import type { SearchResult } from '../../src/search/search.js';
import type { Harness, Target } from './harness.js';

export interface Scorable {
  path: string;
  start: number;
  end: number;
}

/** The shown part that covers one of the targets, else the first shown part. */
export function scorable(h: Pick<Harness, 'covers'>, r: SearchResult, targets: Target[]): Scorable {
  const parts = (r.shown ?? [{ startLine: r.startLine, endLine: r.endLine }]).map((s) => ({ path: r.path, start: s.startLine, end: s.endLine }));
  return parts.find((p) => targets.some((t) => h.covers(p, t))) ?? parts[0]!;
}
