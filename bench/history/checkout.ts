// The history sets' repositories at their snapshots, as git work trees under $OCRAG_HISTORY (default
// /tmp/ocrag-history)/<owner>__<name>. Nothing is downloaded here: each is cloned (--shared) from the copy the
// `fetch` tool leaves at $OCRAG_HISTORY_MIRRORS (default /work/.mirror)/<owner>+<name>/repo. A checkout already at
// its snapshot is left alone.
//
//   node --import tsx bench/history/checkout.ts [--repos a,b]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkoutDir, HISTORY_DIR, loadSets, mirrorGitDir, type HistorySet } from './sets.js';
import { readFlags, repoList } from '../eval/settings.js';

const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

export function headOf(dir: string): string | null {
  try {
    return git(['-C', dir, 'rev-parse', 'HEAD']);
  } catch {
    return null;
  }
}

/** Paths of the snapshot's files whose blob the copy does not hold. */
function missingBlobs(dir: string, snapshot: string): string[] {
  const entries = git(['-C', dir, 'ls-tree', '-r', '-z', snapshot]).split('\0').filter(Boolean).map((line) => {
    const [meta, p] = line.split('\t');
    const [, type, sha] = meta!.split(' ');
    return { type, sha: sha!, path: p! };
  }).filter((e) => e.type === 'blob');
  const check = execFileSync('git', ['-C', dir, 'cat-file', '--batch-check'], { input: entries.map((e) => e.sha).join('\n') + '\n', encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const absent = new Set(check.split('\n').filter((l) => l.endsWith(' missing')).map((l) => l.split(' ')[0]));
  return entries.filter((e) => absent.has(e.sha)).map((e) => e.path);
}

export function ensureCheckout(set: HistorySet, log: (m: string) => void): string {
  const dir = checkoutDir(set);
  if (headOf(dir) === set.snapshot) return dir;
  if (!fs.existsSync(dir)) {
    const mirror = mirrorGitDir(set.repo);
    if (!fs.existsSync(mirror)) throw new Error(`${set.repo}: no fetched copy at ${mirror} (fetch github:${set.repo} first)`);
    log(`${set.repo}: cloning ${mirror} -> ${dir}`);
    fs.mkdirSync(HISTORY_DIR, { recursive: true });
    git(['clone', '--quiet', '--shared', '--no-checkout', mirror, dir]);
  }
  const missing = missingBlobs(dir, set.snapshot);
  if (missing.length) {
    // A fetched copy lacks files of 4 MiB and more (jars, media): they are left out of the work tree, not fetched.
    git(['-C', dir, 'sparse-checkout', 'set', '--no-cone', '/*', ...missing.map((p) => `!/${p.replace(/([*?[\]\\!])/g, '\\$1')}`)]);
    log(`${set.repo}: ${missing.length} file(s) the copy lacks left out: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}`);
  }
  git(['-C', dir, '-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--force', '--detach', set.snapshot]);
  log(`${set.repo}: at ${set.snapshot.slice(0, 12)}`);
  return dir;
}

function main(): void {
  let repos: string[] = [];
  readFlags(process.argv.slice(2), { '--repos': (v) => (repos = repoList(v())) });
  for (const set of loadSets(repos)) ensureCheckout(set, (m) => process.stderr.write(m + '\n'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
