import { git } from './run.js';

/** What each worktree of the repository has checked out: branch short names, and detached commits. */
export async function checkedOut(root: string): Promise<{ branches: Set<string>; detached: Set<string> }> {
  const out = await git(['worktree', 'list', '--porcelain'], { cwd: root });
  const branches = new Set<string>();
  const detached = new Set<string>();
  let head = '';
  for (const line of out.split('\n')) {
    if (line.startsWith('HEAD ')) head = line.slice(5);
    else if (line.startsWith('branch ')) branches.add(line.slice(7).replace(/^refs\/heads\//, ''));
    else if (line === 'detached' && head) detached.add(head);
  }
  return { branches, detached };
}
