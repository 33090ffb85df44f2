import fs from 'node:fs';
import { joinKey, keyFsPath, latin1Key, nulRecords, shownPath } from './path-key.js';
import { gitBuffer } from './run.js';

/** Folders never worth walking in a source: version control and dependency trees. */
const NEVER = new Set(['.git', '.ocrag', 'node_modules', '.hg', '.svn']);

/**
 * The files of a folder as keys (`path-key.ts`), `/`-separated and relative to it: inside a git work tree what git
 * would show (tracked and untracked, .gitignore honoured), elsewhere every regular file but those under NEVER.
 * Names are read as bytes, so one that is not UTF-8 is found and kept apart from its look-alikes. Symlinks are not followed.
 */
export async function folderFiles(dir: string): Promise<string[]> {
  const inside = await gitBuffer(['rev-parse', '--is-inside-work-tree'], { cwd: dir, okCodes: [128] }).catch(() => null);
  if (inside?.code === 0 && inside.stdout.toString().trim() === 'true') {
    // Without --full-name, git names the files relative to the folder it runs in.
    const { stdout } = await gitBuffer(['ls-files', '-z', '--cached', '--others', '--exclude-standard', '.'], { cwd: dir });
    return nulRecords(stdout)
      .map(latin1Key)
      .filter((p) => !shownPath(p).split('/').some((part) => NEVER.has(part)))
      .sort();
  }
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(rel ? keyFsPath(dir, rel) : dir, { withFileTypes: true, encoding: 'buffer' })) {
      const child = joinKey(rel, entry.name);
      if (entry.isDirectory() && !NEVER.has(entry.name.toString('latin1'))) walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  walk('');
  return out.sort();
}
