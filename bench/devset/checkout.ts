// The second dev set's repositories at their pinned revisions, as git work trees under $OCRAG_DEVSET
// (default /tmp/ocrag-devset)/<name>. Nothing is downloaded here: each is cloned (--shared) from the bare copy the
// `fetch` tool leaves at $OCRAG_DEVSET_MIRRORS (default /work/.mirror)/<owner>+<name>/repo. A checkout already at
// its revision is left alone.
//
//   node --import tsx bench/devset/checkout.ts [--repos a,b]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface DevsetRepo {
  name: string;
  revision: string;
  mirror_name: string;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Where the dev set's checkouts are (bench/eval.ts --devset reads them here). */
export const DEVSET_DIR = process.env.OCRAG_DEVSET ?? '/tmp/ocrag-devset';
const MIRRORS = process.env.OCRAG_DEVSET_MIRRORS ?? '/work/.mirror';

const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

function headOf(dir: string): string | null {
  try {
    return git(['-C', dir, 'rev-parse', 'HEAD']);
  } catch {
    return null;
  }
}

function ensure(repo: DevsetRepo, log: (m: string) => void): void {
  const dir = path.join(DEVSET_DIR, repo.name);
  if (headOf(dir) === repo.revision) return;
  if (!fs.existsSync(dir)) {
    const mirror = path.join(MIRRORS, repo.mirror_name, 'repo');
    if (!fs.existsSync(mirror)) throw new Error(`${repo.name}: no mirror at ${mirror} (fetch github:${repo.mirror_name.replace('+', '/')} first)`);
    log(`${repo.name}: cloning ${mirror} -> ${dir}`);
    fs.mkdirSync(DEVSET_DIR, { recursive: true });
    git(['clone', '--quiet', '--shared', '--no-checkout', mirror, dir]);
  }
  git(['-C', dir, '-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--force', '--detach', repo.revision]);
  log(`${repo.name}: at ${repo.revision}`);
}

function main(): void {
  const argv = process.argv.slice(2);
  const only = argv[0] === '--repos' ? (argv[1] ?? '').split(',').filter(Boolean) : [];
  const repos = (JSON.parse(fs.readFileSync(path.join(HERE, 'repos.json'), 'utf8')) as DevsetRepo[]).filter((r) => only.length === 0 || only.includes(r.name));
  for (const repo of repos) ensure(repo, (m) => process.stderr.write(m + '\n'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
