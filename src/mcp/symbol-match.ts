/** How well a chunk's breadcrumb matches a wanted name, best first; `none` excludes it. */
export type SymbolMatch = 'exact' | 'case-insensitive' | 'partial' | 'fuzzy' | 'none';

export const MATCH_RANK: Record<SymbolMatch, number> = { exact: 4, 'case-insensitive': 3, partial: 2, fuzzy: 1, none: 0 };

/**
 * Matches `wanted` (a name, or a qualified name such as `Router.handle`, `Router::handle`, `Router#handle`)
 * against the innermost definition of a breadcrumb like "class Router > method handle". Qualifiers must each
 * name something in the breadcrumb (an enclosing definition, a Go receiver, a C++ scope).
 */
export function matchSymbol(breadcrumb: string, wanted: string): SymbolMatch {
  const parts = wanted.split(/::|->|[.#\\/\s]+/).filter(Boolean);
  const name = parts.pop();
  const segments = breadcrumb.split(' > ');
  const defined = definedName(segments[segments.length - 1] ?? '');
  if (!name || !defined) return 'none';
  if (parts.length) {
    const known = new Set(identifiers(breadcrumb).map((w) => w.toLowerCase()));
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

/**
 * The name a breadcrumb segment defines: "fn push_back" → push_back, "func (c *Cache) Get" → Get,
 * "impl AsRef<JoinHandle<T>> for AbortOnDropHandle<T>" → AbortOnDropHandle, "class Router" → Router.
 */
export function definedName(segment: string): string {
  let s = stripGenerics(segment);
  const forAt = s.lastIndexOf(' for ');
  if (forAt >= 0) s = s.slice(forAt + 5);
  const words = identifiers(s);
  return words[words.length - 1] ?? '';
}

function identifiers(text: string): string[] {
  return stripGenerics(text).match(/[A-Za-z_$][\w$]*/g) ?? [];
}

function stripGenerics(text: string): string {
  let out = '';
  let depth = 0;
  for (const c of text) {
    if (c === '<') depth++;
    else if (c === '>' && depth > 0) depth--;
    else if (depth === 0) out += c;
  }
  return out;
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
