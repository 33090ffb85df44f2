/**
 * Whether this process took a search's uncommon path: it built or extended a search set (rows read from the store),
 * embedded work-tree files, or answered a fresh clone early. Such a run compiles twice the code a plain one-shot
 * search does, and a code cache written from it (util/code-cache.ts) made every later plain search pay ~10 ms
 * more to read it (issue 31). Kept on the global object: the quick entry and the bundle it runs are separate copies.
 */
const UNCOMMON = Symbol.for('ocrag.uncommon-run');

export function noteUncommonRun(): void {
  (globalThis as Record<symbol, unknown>)[UNCOMMON] = true;
}

export function isUncommonRun(): boolean {
  return (globalThis as Record<symbol, unknown>)[UNCOMMON] === true;
}
