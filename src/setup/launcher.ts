import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathVariable } from '../workspace/environment.js';

/** How an agent starts this installation's MCP server: `command` with `args`, then `mcp` and its flags. */
export interface Launcher {
  command: string;
  args: string[];
  /** `path`: the `ocrag` on PATH is this installation (portable: the config can be committed and shared).
   *  `absolute`: node and the entry script by absolute path (works without PATH, tied to this machine). */
  kind: 'path' | 'absolute';
}

/** The CLI entry point of this installation (dist/cli/main.js). */
export const ENTRY_SCRIPT = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** The file npm links `ocrag` to (package.json "bin"): the sh launcher that is also the bundled program. */
export const INSTALLED_COMMAND = fileURLToPath(new URL('../cli/ocrag.cjs', import.meta.url));

/**
 * `ocrag` when the first `ocrag` on PATH is this very installation, since a bare name survives moves and works
 * for teammates who share the config; otherwise (or with `absolute`) node + this entry script by absolute path,
 * which never picks up another version by accident.
 */
export function resolveLauncher(opts: { absolute?: boolean; pathEnv?: string } = {}): Launcher {
  if (!opts.absolute) {
    const found = findOnPath('ocrag', opts.pathEnv ?? pathVariable() ?? '');
    if (found && (sameFile(found, INSTALLED_COMMAND) || sameFile(found, ENTRY_SCRIPT))) return { command: 'ocrag', args: [], kind: 'path' };
  }
  return { command: process.execPath, args: [ENTRY_SCRIPT], kind: 'absolute' };
}

function findOnPath(name: string, pathEnv: string): string | null {
  const names = process.platform === 'win32' ? [`${name}.cmd`, `${name}.exe`, name] : [name];
  for (const dir of pathEnv.split(path.delimiter).filter(Boolean)) {
    for (const n of names) {
      const candidate = path.join(dir, n);
      if (fs.statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    }
  }
  return null;
}

/** npm installs `ocrag` as a symlink to dist/cli/ocrag.cjs (a .cmd shim on Windows, which we can't follow: not the same). */
function sameFile(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}
