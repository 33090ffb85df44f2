import type { SearchView } from '../../view.js';

/**
 * Names of the project's own packages: directories near the root (`fastapi/`, `src/flask/`, `packages/vitest/`)
 * that hold dozens of files. A sentence that names one (`how does FastAPI run sync route functions`) speaks of the
 * project, not of its class of that name (`class FastAPI` in applications.py), which is one file of many that answer.
 */
const PACKAGE_DEPTH = 2;
/** Dozens: the public benchmark's package directories hold 24 to 260 files, fixture folders of one name fewer. */
const PACKAGE_FILES = 20;

const memo = new WeakMap<SearchView, Set<string>>();

/** `FastAPI`, `fast_api` and `fastapi/` are one name: lower case, no separators. */
export function packageKey(name: string): string {
  return name.toLowerCase().replace(/[-_.]/g, '');
}

export function packageNames(view: SearchView): Set<string> {
  let names = memo.get(view);
  if (!names) memo.set(view, (names = collect(view)));
  return names;
}

function collect(view: SearchView): Set<string> {
  const files = new Map<string, number>();
  for (const { path } of view.files) {
    const dirs = path.split('/').slice(0, -1).slice(0, PACKAGE_DEPTH);
    for (const dir of new Set(dirs.map(packageKey))) files.set(dir, (files.get(dir) ?? 0) + 1);
  }
  return new Set([...files].filter(([, n]) => n >= PACKAGE_FILES).map(([dir]) => dir));
}
