// A docs-benchmark repository at its pinned commit: an existing checkout at that commit is used as it is, else it is
// cloned from the local mirror ($OCRAG_DOCS_MIRRORS/<owner>+<name>/repo) or, when there is none, from its URL.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface DocsRepo {
  name: string;
  url: string;
  commit: string;
}

const git = (args: string[], cwd?: string) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

export function mirrorOf(repo: DocsRepo, mirrors: string): string {
  const [owner, name] = new URL(repo.url).pathname.replace(/^\//, '').replace(/\.git$/, '').split('/');
  return path.join(mirrors, `${owner}+${name}`, 'repo');
}

export function checkout(repo: DocsRepo, root: string, mirrors: string, log: (m: string) => void): string {
  const dir = path.join(root, repo.name);
  if (fs.existsSync(path.join(dir, '.git'))) {
    if (git(['rev-parse', 'HEAD'], dir) === repo.commit) return dir;
  } else {
    const mirror = mirrorOf(repo, mirrors);
    const source = fs.existsSync(mirror) ? mirror : repo.url;
    log(`${repo.name}: cloning ${source} -> ${dir}`);
    fs.mkdirSync(root, { recursive: true });
    git(['clone', '--quiet', '--no-checkout', source, dir]);
  }
  log(`${repo.name}: checking out ${repo.commit}`);
  git(['checkout', '--quiet', '--detach', repo.commit], dir);
  return dir;
}
