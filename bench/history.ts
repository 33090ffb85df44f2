// Store growth over a long history (issue "Long-lived repositories"). Prints numbers; asserts nothing.
// usage: node --import tsx bench/history.ts [repo] [--commits 30] [--years N] [--branches <repo>] [--gap 15] [--keep] [--auto-gc]
//   repo (or OCRAG_HISTORY_REPO): a repository with a long history, e.g. sympy. It is cloned into a temp folder;
//   --commits commits spread evenly over its first-parent history (the last --years only, if given) are checked
//   out in turn on one branch and indexed with the built CLI. Then: the store against a fresh index of the newest
//   commit alone (the issue's target: at most 2.5×), and whether `search --json` of a fixed query list, after the
//   history run, is identical to a fresh index's for the newest, a middle and the oldest commit.
//   --branches (or OCRAG_BRANCHES_REPO): a second part on another repository (e.g. tokio): the store of two
//   branches --gap first-parent commits apart against the store of one (target: at most 1.03×).
//   Automatic gc is off (it would bound the store by dropping old manifests, hiding how the store grows); --auto-gc
//   leaves it on to see the policy's effect.
// Needs `npm run build` first (it runs dist/cli/main.js). Never writes to the given repositories; --keep keeps the
// temp folder of clones and indexes.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dirSize } from '../src/util/dir-size.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
const ENV = { ...process.env, ...(process.argv.includes('--auto-gc') ? {} : { OCRAG_AUTO_GC: 'false' }), GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'b@x.invalid', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'b@x.invalid', NO_COLOR: '1' };
const QUERIES = [
  'solve a polynomial equation',
  'simplify a trigonometric expression',
  'determinant of a matrix',
  'integrate a rational function',
  'parse a string into an expression',
  'print an expression as LaTeX',
  'series expansion around a point',
  'greatest common divisor of two polynomials',
];

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const VALUED = new Set(['--commits', '--years', '--branches', '--gap']);
const positional = args.find((a, i) => !a.startsWith('--') && !VALUED.has(args[i - 1]));

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const git = (cwd: string, ...argv: string[]) => execFileSync('git', argv, { cwd, env: ENV, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();

interface IndexSummary {
  files: number;
  newBlobs: number;
  chunksEmbedded: number;
  chunksTotal: number | null;
}

function ocrag(cwd: string, ...argv: string[]): { stdout: string; seconds: number } {
  const started = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...argv], { cwd, env: ENV, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`ocrag ${argv.join(' ')} in ${cwd} exited ${r.status}: ${r.stderr}`);
  return { stdout: r.stdout, seconds: (performance.now() - started) / 1000 };
}

function index(repo: string): IndexSummary & { seconds: number } {
  const run = ocrag(repo, 'index', '--json');
  return { ...(JSON.parse(run.stdout) as IndexSummary), seconds: run.seconds };
}

const indexBytes = (repo: string) => dirSize(path.join(repo, '.ocrag'));
const largeStore = (repo: string) => fs.existsSync(path.join(repo, '.ocrag', 'search-indexes.json'));

/** A clone of its own (local clones hard-link objects: quick), checked out at `commit` on `branch`. */
function cloneAt(source: string, work: string, name: string, commit: string, branch: string): string {
  const dir = path.join(work, name);
  git(work, 'clone', '-q', '--no-checkout', source, dir);
  git(dir, 'checkout', '-q', '-B', branch, commit);
  return dir;
}

/** `count` first-parent commits of HEAD spread evenly from the oldest (within `years`, if given) to the newest. */
function spreadCommits(repo: string, count: number, years?: number): { commit: string; date: string }[] {
  const since = years ? [`--since=${years} years ago`] : [];
  const log = git(repo, 'log', '--first-parent', '--reverse', '--format=%H %cs', ...since, 'HEAD')
    .split('\n')
    .map((line) => ({ commit: line.slice(0, 40), date: line.slice(41) }));
  if (log.length <= count) return log;
  return Array.from({ length: count }, (_, i) => log[Math.round((i * (log.length - 1)) / (count - 1))]);
}

function answers(repo: string): string[] {
  return QUERIES.map((q) => ocrag(repo, 'search', q, '-k', '10', '--json').stdout);
}

function history(source: string, work: string): void {
  const count = Number(option('--commits') ?? 30);
  const years = option('--years') ? Number(option('--years')) : undefined;
  const repo = path.join(work, 'history');
  git(work, 'clone', '-q', '--no-checkout', source, repo);
  const picked = spreadCommits(repo, count, years);
  console.log(`history      ${source}: ${picked.length} commits from ${picked[0].date} to ${picked.at(-1)!.date}, one branch moved through them`);
  console.log('  #  date        commit    files  chunks embedded  chunks stored  seconds   .ocrag/');
  const started = performance.now();
  picked.forEach(({ commit, date }, i) => {
    git(repo, 'checkout', '-q', '-f', '-B', 'history', commit);
    const s = index(repo);
    const row = [String(i + 1).padStart(3), date, commit.slice(0, 8), String(s.files).padStart(6), String(s.chunksEmbedded).padStart(16), String(s.chunksTotal ?? '').padStart(14), s.seconds.toFixed(1).padStart(8), mib(indexBytes(repo)).padStart(11)];
    console.log(row.join('  '));
  });
  const historyBytes = indexBytes(repo);
  const historyLance = dirSize(path.join(repo, '.ocrag', 'lance'));
  console.log(`history run  ${((performance.now() - started) / 1000).toFixed(0)} s; ${largeStore(repo) ? 'a view reached the in-memory budget: the store has search indexes' : 'no view reached the in-memory budget: no search indexes'}`);

  const newest = picked.at(-1)!;
  const fresh = cloneAt(source, work, 'fresh-newest', newest.commit, 'history');
  const freshRun = index(fresh);
  const freshBytes = indexBytes(fresh);
  const freshLance = dirSize(path.join(fresh, '.ocrag', 'lance'));
  console.log(`fresh        newest commit alone: ${freshRun.files} files, ${freshRun.chunksEmbedded} chunks in ${freshRun.seconds.toFixed(1)} s, .ocrag/ ${mib(freshBytes)} (tables ${mib(freshLance)})`);
  console.log(`ratio        .ocrag/ after the history ${mib(historyBytes)} = ${(historyBytes / freshBytes).toFixed(2)}× the fresh index (tables ${(historyLance / freshLance).toFixed(2)}×; target ≤ 2.5×)`);

  const compared = [...new Set([picked.length - 1, Math.floor(picked.length / 2), 0])].map((i) => picked[i]);
  for (const { commit, date } of compared) {
    const other = commit === newest.commit ? fresh : cloneAt(source, work, `fresh-${commit.slice(0, 8)}`, commit, 'history');
    if (other !== fresh) index(other);
    // The history clone goes back to that commit detached: its run finds every blob stored and embeds nothing.
    if (commit !== newest.commit) git(repo, 'checkout', '-q', '-f', '--detach', commit);
    const again = commit === newest.commit ? null : index(repo);
    const mine = answers(repo);
    const theirs = answers(other);
    const differing = mine.filter((a, i) => a !== theirs[i]).length;
    const verdict = differing ? `DIFFERENT for ${differing} of ${QUERIES.length} queries` : `identical for all ${QUERIES.length} queries`;
    console.log(`search       ${date} ${commit.slice(0, 8)}: after the history ${verdict} to a fresh index${again ? ` (re-visit embedded ${again.chunksEmbedded} chunks)` : ''}`);
  }
}

function twoBranches(source: string, work: string): void {
  const gap = Number(option('--gap') ?? 15);
  const head = git(source, 'rev-parse', 'HEAD');
  const repo = cloneAt(source, work, 'branches', head, 'newer');
  const first = index(repo);
  const one = indexBytes(repo);
  git(repo, 'checkout', '-q', '-b', 'older', `${head}~${gap}`);
  const changed = git(repo, 'diff', '--name-only', 'older', 'newer').split('\n').filter(Boolean).length;
  const second = index(repo);
  const two = indexBytes(repo);
  console.log(`branches     ${source}: newer ${head.slice(0, 8)} (${first.files} files, ${first.chunksEmbedded} chunks, ${first.seconds.toFixed(1)} s) and older ${gap} first-parent commits back (${changed} files differ, ${second.chunksEmbedded} chunks embedded, ${second.seconds.toFixed(1)} s)`);
  console.log(`ratio        .ocrag/ of both ${mib(two)} = ${(two / one).toFixed(3)}× one branch's ${mib(one)} (target ≤ 1.03×)`);
}

function main(): void {
  const source = positional ?? process.env.OCRAG_HISTORY_REPO;
  const branches = option('--branches') ?? process.env.OCRAG_BRANCHES_REPO;
  if (!source && !branches) {
    console.error('usage: npm run bench:history -- <repo with a long history> [--commits 30] [--years N] [--branches <repo>] [--gap 15]');
    process.exit(2);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-bench-history-'));
  console.log(`machine      ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; work in ${work}`);
  try {
    if (source) history(path.resolve(source), work);
    if (branches) twoBranches(path.resolve(branches), work);
  } finally {
    if (!args.includes('--keep')) fs.rmSync(work, { recursive: true, force: true });
  }
}

main();
