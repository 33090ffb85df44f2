/** Where the quick entry of a search lends its import() (util/code-cache.ts). */
export const LENT_IMPORT = Symbol.for('ocrag.lent-import');

/**
 * `import(name)` of a package (or a file by its URL). Code that V8 compiled from its code cache (util/code-cache.ts) cannot import on Node
 * 20: the cached script loses the importer it was given. The module that runs such code lends its own import()
 * here, so a package loaded late (a model's runtime, the PDF reader) loads there as anywhere else.
 */
export function importPackage<T>(name: string): Promise<T> {
  const lent = (globalThis as Record<symbol, unknown>)[LENT_IMPORT] as ((name: string) => Promise<unknown>) | undefined;
  return (lent ? lent(name) : import(name)) as Promise<T>;
}
