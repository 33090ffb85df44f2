// Where a fired git hook's run (`ocrag hook <name>`) is loaded from, apart from main.ts so that no other command
// loads it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { requireWithCodeCache } from '../util/code-cache.js';
import { cacheRoot } from '../workspace/environment.js';

type HookEntry = typeof import('../workspace/hook.js');

/**
 * V8's budget before a hot WebAssembly function is compiled again by its optimising compiler, 100× its default
 * (1,800,000): for a commit's file the grammar's parser and lexer were compiled so on V8's worker threads, ~100-200
 * ms of CPU that a run of a few files never earns back (tokio, load 14: the workers' CPU 170-310 → 80-100 ms);
 * a run of 700 files chunked in the same CPU either way (1.81-1.94 s). Only this process, a hook's, is told.
 */
const WASM_TIERING_BUDGET = 180_000_000;

/**
 * The hook's run: hook-run.cjs, the whole of it in one CommonJS file that V8's code cache compiles
 * (util/code-cache.ts), else (a run from sources, where there is no such file) the module itself. Through the main
 * bundle a one-file commit's run loaded ~60 files, each resolved, read and compiled anew: about a third of its CPU
 * before the commit was searchable (issue 31).
 */
export async function hookEntry(): Promise<HookEntry> {
  // Before any grammar is compiled: a module's tiering is set up as it is compiled.
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
  const file = fileURLToPath(new URL('./hook-run.cjs', import.meta.url));
  try {
    return requireWithCodeCache(file, path.join(cacheRoot(), 'code')) as HookEntry;
  } catch {
    // No such file (sources), or one that does not load: a hook never fails for it, the module runs the same code.
    return import('../workspace/hook.js');
  }
}
