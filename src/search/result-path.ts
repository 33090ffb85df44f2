import { isQuotedKey, shownPath } from '../git/path-key.js';
import type { SearchResult } from './search.js';

/** The key of the file a result names (`path-key.ts`): its quoted form when it has one, else its path. */
export function resultKey(r: Pick<SearchResult, 'path' | 'quotedPath'>): string {
  return r.quotedPath ?? r.path;
}

/**
 * A result of a source's file, told which source it is of and where it is on disk (`absolute`: shown path's key →
 * absolute path's key, as the scan that laid the sources over the view found them); other results as they are.
 */
export function withSourceFile(r: SearchResult, absolute: ReadonlyMap<string, string>): SearchResult {
  const onDisk = absolute.get(resultKey(r));
  if (onDisk === undefined) return r;
  return { ...r, source: r.path.slice(0, r.path.indexOf(':')), absolutePath: shownPath(onDisk), ...(isQuotedKey(onDisk) ? { quotedAbsolutePath: onDisk } : {}) };
}

/**
 * The key of the file a caller names, as results gave it: its `quotedPath` or plain `path` (a key itself), else a
 * shown path that exactly one file shows. Several files showing it alike (`caf\xe9.py`, `caf\xe8.py`) → their keys.
 */
export function namedFile(files: Readonly<Record<string, unknown>>, given: string): { key: string } | { ambiguous: string[] } | null {
  if (Object.hasOwn(files, given)) return { key: given };
  const alike = Object.keys(files).filter((key) => isQuotedKey(key) && shownPath(key) === given);
  return alike.length === 1 ? { key: alike[0]! } : alike.length ? { ambiguous: alike } : null;
}
