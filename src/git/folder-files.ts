import fs from 'node:fs';
import path from 'node:path';
import { gitBuffer } from './run.js';

/** Folders never worth walking in a source: version control and dependency trees. */
const NEVER = new Set(['.git', '.ocrag', 'node_modules', '.hg', '.svn']);

/**
 * The files of a folder, `/`-separated and relative to it: inside a git work tree what git would show (tracked
 * and untracked, .gitignore honoured), elsewhere every regular file but those under NEVER. Symlinks are not followed.
 */
export async function folderFiles(dir: string): Promise<string[]> {
  const inside = await gitBuffer(['rev-parse', '--is-inside-work-tree'], { cwd: dir, okCodes: [128] }).catch(() => null);
  if (inside?.code === 0 && inside.stdout.toString().trim() === 'true') {
    // Without --full-name, git names the files relative to the folder it runs in.
    const { stdout } = await gitBuffer(['ls-files', '-z', '--cached', '--others', '--exclude-standard', '.'], { cwd: dir });
    return stdout
      .toString('utf8')
      .split('\0')
      .filter((p) => p && !p.split('/').some((part) => NEVER.has(part)))
      .sort();
  }
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory() && !NEVER.has(entry.name)) walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  walk('');
  return out.sort();
}
