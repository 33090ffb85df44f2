import { gitBuffer } from './run.js';

/**
 * Whether git tracks anything at `name` in the work tree at `root` (a file, a link, or any file under a folder),
 * in any letter case (on a case-insensitive disk `.OCRAG/` lands in `.ocrag/`). Asks the git index, not HEAD:
 * once a user has run `git rm -r` the folder is theirs again, committed or not.
 */
export async function isTracked(root: string, name: string): Promise<boolean> {
  const { stdout } = await gitBuffer(['ls-files', '-z', '--', `:(icase,literal)${name}`], { cwd: root });
  return stdout.length > 0;
}
