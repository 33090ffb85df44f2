// Where a fired git hook's run (`ocrag hook <name>`) is loaded from, apart from main.ts so that no other command
// loads it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from '../util/code-cache.js';
import { cacheRoot } from '../workspace/environment.js';

type HookEntry = typeof import('../workspace/hook.js');

/**
 * The hook's run: hook-run.cjs, the whole of it in one CommonJS file that V8's code cache compiles
 * (util/code-cache.ts), else (a run from sources, where there is no such file) the module itself. Through the main
 * bundle a one-file commit's run loaded ~60 files, each resolved, read and compiled anew: about a third of its CPU
 * before the commit was searchable (issue 31).
 */
export async function hookEntry(): Promise<HookEntry> {
  const file = fileURLToPath(new URL('./hook-run.cjs', import.meta.url));
  try {
    return requireWithCodeCache(file, path.join(cacheRoot(), 'code')) as HookEntry;
  } catch {
    // No such file (sources), or one that does not load: a hook never fails for it, the module runs the same code.
    return import('../workspace/hook.js');
  }
}
