import { breadcrumbIdentifiers, innermost } from '../text/breadcrumb.js';
import { resultKey } from './result-path.js';
import type { SearchResult } from './search.js';

/** How well a chunk's breadcrumb matches a wanted name, best first; `none` excludes it. */
export type SymbolMatch = 'exact' | 'case-insensitive' | 'partial' | 'fuzzy' | 'none';

export const MATCH_RANK: Record<SymbolMatch, number> = { exact: 4, 'case-insensitive': 3, partial: 2, fuzzy: 1, none: 0 };

/**
 * Matches `wanted` (a name, or a qualified name such as `Router.handle`, `Router::handle`, `Router#handle`)
 * against the name the innermost element of a breadcrumb like "class Router > method handle" defines (see
 * text/breadcrumb.ts: an impl names its type). Qualifiers must each name something in the breadcrumb (an
 * enclosing definition, a Go receiver, a C++ scope, an impl's trait or type).
 */
export function matchSymbol(breadcrumb: string, wanted: string): SymbolMatch {
  const defined = innermost(breadcrumb)?.name;
  if (!defined) return 'none';
  // A name with separators of its own (`module zod/v4`) is matched whole before it is read as qualified.
  if (defined === wanted) return 'exact';
  const parts = wanted.split(/::|->|[.#\\/\s]+/).filter(Boolean);
  const name = parts.pop();
  if (!name) return 'none';
  if (parts.length) {
    const known = new Set(breadcrumbIdentifiers(breadcrumb).map((w) => w.toLowerCase()));
    if (!parts.every((p) => known.has(p.toLowerCase()))) return 'none';
  }
  if (defined === name) return 'exact';
  const a = defined.toLowerCase();
  const b = name.toLowerCase();
  if (a === b) return 'case-insensitive';
  if (b.length >= 3 && a.includes(b)) return 'partial';
  if (editDistance(a, b, 2) <= (b.length >= 6 ? 2 : 1)) return 'fuzzy';
  return 'none';
}

/** Levenshtein distance, giving up (returning limit + 1) once it must exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, current[j]);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length];
}

/** Candidates a hybrid search ranks before names are matched; names weigh heavily in its lexical half. */
export const SYMBOL_CANDIDATES = 50;

/** A definition found by name: the chunk where it starts, and how well its name matched. */
export interface SymbolDefinition {
  result: SearchResult;
  match: Exclude<SymbolMatch, 'none'>;
}

/** Chunks whose innermost definition matches, best match first, one per definition (its first chunk). */
export function definitions(candidates: SearchResult[], name: string): SymbolDefinition[] {
  const first = new Map<string, SymbolDefinition>();
  for (const result of candidates) {
    const match = matchSymbol(result.symbol, name);
    if (match === 'none') continue;
    const key = `${resultKey(result)}\n${result.symbol}`;
    const seen = first.get(key);
    if (!seen || result.startLine < seen.result.startLine) first.set(key, { result, match });
  }
  return [...first.values()].sort((a, b) => MATCH_RANK[b.match] - MATCH_RANK[a.match] || b.result.score - a.result.score);
}
