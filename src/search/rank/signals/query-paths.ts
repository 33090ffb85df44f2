import type { PathHint } from '../../query-parts.js';
import type { BoostSignal } from './signal.js';

const DEFAULTS = {
  /** Files a long query names: the frames of a pasted stack trace (the top one most), paths written in it. */
  queryPaths: true,
  queryPathBoost: 2,
  /** Share of the boost kept by a chunk of the named file that does not hold the named line. */
  queryPathOffLine: 0.8,
};

/** Files a long query names (`QueryInfo.pathHints`): nothing for a query that names none, so short ones rank as before. */
export const queryPaths: BoostSignal<typeof DEFAULTS> = {
  name: 'queryPaths',
  stage: 'boost',
  defaults: DEFAULTS,
  weight: (cfg) => cfg.queryPathBoost,
  prepare: ({ q, cfg }) => {
    if (!q.pathHints.length) return () => 0;
    const byPath = new Map<string, { hint: PathHint; match: number }[]>();
    return (hit) => {
      let matches = byPath.get(hit.file.path);
      if (!matches) byPath.set(hit.file.path, (matches = q.pathHints.map((hint) => ({ hint, match: pathMatch(hint.path, hit.file.display) })).filter((m) => m.match > 0)));
      let best = 0;
      for (const { hint, match } of matches) {
        const { startLine, endLine } = hit.candidate.chunk;
        const onLine = hint.line === null || (hint.line >= startLine && hint.line <= endLine);
        best = Math.max(best, hint.weight * match * (onLine ? 1 : cfg.queryPathOffLine));
      }
      return best;
    };
  },
};

/**
 * How surely a path written in a query (absolute on the reporter's machine, relative, or a bare file name) is a
 * file of the view, 0..1: the trailing path segments they share, over the fewer segments of the two. The file
 * name must agree; `/home/u/proj/app/models.py` is `app/models.py` (1), less surely `lib/models.py` (0.5).
 */
export function pathMatch(written: string, path: string): number {
  const a = segments(written);
  const b = segments(path);
  let shared = 0;
  while (shared < a.length && shared < b.length && a[a.length - 1 - shared] === b[b.length - 1 - shared]) shared++;
  return shared ? shared / Math.min(a.length, b.length) : 0;
}

function segments(path: string): string[] {
  return path.split(/[/\\]/).filter((s) => s && s !== '.' && s !== '..');
}
