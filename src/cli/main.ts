#!/usr/bin/env node
// The full `ocrag` program, which the installed command (bin.ts) starts for anything but a plain search, and which
// git hooks, agent configs and tests start by this file's path. A git hook's run, `ocrag hook <name>` (what the
// installed blocks start after every commit and checkout), goes straight to the hook's own entry: commander, the
// command table and the hooks command's module (install, status, the setup code they bring) were about a tenth of a
// one-file commit's run, before the commit is searchable. A plain `ocrag search` likewise goes to its quick entry
// (quick-search.ts), which leaves any command line it does not read with certainty to the full program.
import { createRequire } from 'node:module';

// A reader that stops early (`ocrag search … | head`) closes the pipe: the rest of the output has nobody to go to,
// which is no error of ocrag's, so the process ends quietly (exit 0 unless a code was set) instead of dying on an
// unhandled EPIPE. Written here and not imported (closed-pipe.ts, the installed command's): an import of a module of
// its own makes this bundle load esbuild's shared helpers first, one more file for every run.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode === undefined ? 0 : Number(process.exitCode));
    throw e;
  });
}

const [command, name, ...args] = process.argv.slice(2);
if (command === 'hook' && name !== undefined && !name.startsWith('-')) {
  // Never fails, exit 0 (as the hidden `hook` command of the full program).
  await (await (await import('./hook-entry.js')).hookEntry()).runHook(process.cwd(), name, args);
} else {
  const words = process.argv.slice(2);
  // The quick entry is a CommonJS bundle (scripts/bundle-cli.mjs): required, its Node built-ins come without the ES
  // module wrappers an import makes of each.
  const quick = words.includes('search') ? ((await quickEntry()?.quickSearch(process.argv)) ?? null) : null;
  // An index run on Linux starts itself again with fewer malloc arenas (cli/arenas.ts), before the program loads.
  const restarted = quick ?? (words.includes('index') ? await (await import('./arenas.js')).runAgainWithArenas(process.argv) : null);
  process.exitCode = restarted ?? (await (await import('./program.js')).main(process.argv));
}

/**
 * The quick entry, a CommonJS bundle beside the built program; null where there is none (this file run from its
 * source under tsx): the full program answers the search then.
 */
function quickEntry(): typeof import('./quick-search.js') | null {
  try {
    return createRequire(import.meta.url)('./quick-search.cjs') as typeof import('./quick-search.js');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && (e as Error).message.includes('quick-search.cjs')) return null;
    throw e;
  }
}
