// Hook and branch numbers on a real repository with history (issue 3). Prints numbers; asserts nothing.
// usage: node --import tsx bench/hooks.ts <clone with history>   (it works on a fresh local clone of it)
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeJsonResult } from './json-result.js';
import { option } from './argv.js';
import { commandOf } from './command.js';
import { median } from './stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
const ENV = { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'b@x.invalid', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'b@x.invalid', NO_COLOR: '1' };

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim();
const ocrag = (cwd: string, ...args: string[]) => execFileSync(process.execPath, [CLI, ...args], { cwd, env: ENV, encoding: 'utf8' });
const ms = (t: number) => Math.round(performance.now() - t);
const du = (dir: string) => Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
/** Bytes under .ocrag by part: the LanceDB chunk tables' folders, the marks table, search snapshots, manifests, the rest. */
function storeBytes(repo: string): Record<string, number> {
  const dir = path.join(repo, '.ocrag');
  const size = (rel: string) => (fs.existsSync(path.join(dir, rel)) ? du(path.join(dir, rel)) : 0);
  const parts: Record<string, number> = { total: du(dir) };
  for (const table of ['contents', 'chunk_refs']) {
    for (const sub of ['data', '_versions', '_indices', '_deletions', '_transactions']) parts[`lance/${table}.lance/${sub}`] = size(`lance/${table}.lance/${sub}`);
  }
  for (const rel of ['lance/blob_marks.lance', 'resident', 'manifests']) parts[rel] = size(rel);
  parts.other = parts.total - Object.entries(parts).reduce((n, [k, v]) => (k === 'total' ? n : n + v), 0);
  return parts;
}
const logOf = (repo: string) => (fs.existsSync(path.join(repo, '.ocrag/log')) ? fs.readFileSync(path.join(repo, '.ocrag/log'), 'utf8') : '');

async function waitForLogLine(repo: string, offset: number, pattern: RegExp): Promise<string> {
  for (;;) {
    const line = logOf(repo).slice(offset).split('\n').find((l) => pattern.test(l));
    if (line && !fs.existsSync(path.join(repo, '.ocrag/index.lock'))) return line;
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function benchHooks(source: string): Promise<Record<string, unknown>> {
  const repo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-bench-hooks-')), path.basename(source));
  git(os.tmpdir(), 'clone', '-q', source, repo);
  const files = git(repo, 'ls-files').split('\n').length;
  ocrag(repo, 'index');
  ocrag(repo, 'hooks', 'install');
  const hook = path.join(repo, '.git/hooks/post-commit');
  // 1. The hook itself: what git waits for.
  const hookTimes: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    spawnSync('sh', [hook], { cwd: repo, env: ENV });
    hookTimes.push(ms(t));
  }
  await waitForLogLine(repo, 0, /post-commit/);
  // 2. A typical commit touching 3 files: commit → background run done (process start included).
  const touched = git(repo, 'ls-files', '*.rs').split('\n').slice(100, 103);
  for (const f of touched) fs.appendFileSync(path.join(repo, f), `\n// bench edit ${Date.now()}\n`);
  git(repo, 'add', '-A');
  let offset = logOf(repo).length;
  let t = performance.now();
  git(repo, 'commit', '-q', '-m', 'bench: touch 3 files');
  const commitReturnMs = ms(t);
  const commitLine = await waitForLogLine(repo, offset, /post-commit: indexed/);
  const commitIndexedMs = ms(t);
  // 2b. A one-file commit: from the post-commit hook's start to its run's end, when the commit is searchable
  // (the run leaves the search set's snapshot current). Committed with hooks off, then the hook run by hand.
  const oneFileMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    fs.appendFileSync(path.join(repo, touched[i % touched.length]), `\n// one-file edit ${Date.now()}\n`);
    git(repo, 'add', '-A');
    git(repo, '-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', `bench: one file ${i}`);
    offset = logOf(repo).length;
    t = performance.now();
    spawnSync('sh', [hook], { cwd: repo, env: ENV });
    await waitForLogLine(repo, offset, /post-commit: indexed/);
    oneFileMs.push(ms(t));
  }
  // 3. Branch switch between two indexed branches 150 commits apart.
  const sizeOneBranch = du(path.join(repo, '.ocrag'));
  git(repo, 'branch', 'old', 'HEAD~150');
  const changedFiles = git(repo, 'diff', '--name-only', 'HEAD~150', 'HEAD').split('\n').length;
  offset = logOf(repo).length;
  t = performance.now();
  git(repo, 'checkout', '-q', 'old');
  const firstSwitch = await waitForLogLine(repo, offset, /post-checkout/);
  const firstSwitchMs = ms(t);
  const sizeTwoBranches = du(path.join(repo, '.ocrag'));
  // Switches between the two indexed branches, timed from `git checkout` to the background run's log line
  // (node start-up included); several, since the machine may be shared.
  const switchMs: number[] = [];
  let switchLog = '';
  const loadBefore = os.loadavg()[0];
  for (let i = 0; i < 10; i++) {
    offset = logOf(repo).length;
    t = performance.now();
    git(repo, 'checkout', '-q', '-');
    switchLog = await waitForLogLine(repo, offset, /post-checkout/);
    switchMs.push(ms(t));
  }
  const loadAfter = os.loadavg()[0];
  // 4. Disk: two branches that differ in under 5% of files. `du -sb .ocrag` (everything ocrag keeps for the
  // repository: LanceDB tables with every version, index and deletion file they hold, search snapshots,
  // manifests, log); the second branch is indexed, then gc runs (it compacts and drops old versions).
  git(repo, 'checkout', '-q', '-');
  const near = path.join(path.dirname(repo), 'near');
  git(os.tmpdir(), 'clone', '-q', source, near);
  ocrag(near, 'index');
  const nearOne = storeBytes(near);
  const base = git(near, 'rev-parse', '--abbrev-ref', 'HEAD');
  git(near, 'checkout', '-q', '-b', 'near', 'HEAD~15');
  const nearDiff = git(near, 'diff', '--name-only', 'HEAD', base).split('\n').length;
  const nearRun = ocrag(near, 'index', '--json');
  ocrag(near, 'gc');
  const nearTwo = storeBytes(near);
  return {
    repo: path.basename(source),
    files,
    hookReturnMsP50: hookTimes.sort((a, b) => a - b)[5],
    commitReturnMs,
    commit3FilesIndexedMs: commitIndexedMs,
    oneFileCommitSearchableMs: oneFileMs.join(' '),
    oneFileCommitSearchableMsP50: [...oneFileMs].sort((a, b) => a - b)[2],
    commitLog: commitLine.replace(/^\S+ \[\d+\] /, ''),
    branchesApart: `150 commits, ${changedFiles} files differ`,
    firstSwitchMs,
    firstSwitchLog: firstSwitch.replace(/^\S+ \[\d+\] /, ''),
    switchesMs: switchMs.join(' '),
    switchMsP50: [...switchMs].sort((a, b) => a - b)[Math.floor(switchMs.length / 2)],
    switchLastLog: switchLog.replace(/^\S+ \[\d+\] /, ''),
    loadAverage1mDuringSwitches: `${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} on ${os.cpus().length} cores`,
    storeBytesOneBranch: sizeOneBranch,
    storeBytesTwoBranches150Apart: sizeTwoBranches,
    storeRatio150Apart: +(sizeTwoBranches / sizeOneBranch).toFixed(3),
    nearBranchesFilesDiffer: nearDiff,
    nearBranchChunksEmbedded: (JSON.parse(nearRun) as { chunksEmbedded: number }).chunksEmbedded,
    nearStoreBytesOneBranch: nearOne,
    nearStoreBytesTwoBranchesAfterGc: nearTwo,
    nearStoreRatio: +(nearTwo.total / nearOne.total).toFixed(3),
  };
}

/** One one-file commit's run: milliseconds from the hook's start, its CPU seconds, and what the search after it saw. */
interface Searchable {
  cli: string;
  /** HEAD's manifest written: from then on a search answers with the commit. */
  manifestMs: number;
  /** The search set's snapshot (a segment, or the whole file) first written by the run: a one-shot search restores it without LanceDB. */
  snapshotMs: number;
  runEndMs: number;
  hookCpuS: number;
  /** With --poll: when a search started with the hook first held the word, and the start of that search (the commit became searchable in between). */
  searchFoundMs?: number;
  foundSearchStartMs?: number;
  /** The `ocrag search` after the run: its wall time, and whether it found the word. */
  searchAfterMs: number;
  found: boolean;
}

/** Milliseconds from `t` (performance.now()) to the first file (not a temporary one) that appears or changes in `dir`. */
function firstWrite(dir: string, t: number): { ms: () => number; close: () => void } {
  let first = -1;
  const watcher = fs.watch(dir, (_event, name) => {
    if (first < 0 && name && !name.endsWith('.tmp') && !name.includes('.tmp-')) first = ms(t);
  });
  return { ms: () => first, close: () => watcher.close() };
}

/**
 * A one-file commit, searchable: a new word is committed (hooks off), then the post-commit run is started as the
 * hook block starts it (detached `ocrag hook post-commit`). Times from the hook's start: HEAD's manifest written (the
 * commit is searchable), the search set's snapshot written (a one-shot search answers from it), the run's end; then
 * one `ocrag search --no-update` for the word (within the file, so the answer holds the word's chunk exactly when the
 * index has the new blob) must find it. With `poll`, `ocrag search --no-update` is also asked from the hook's start
 * until an answer holds the word (it never indexes itself; each search takes CPU from the run, alike for every build).
 * Several CLIs (builds) are run interleaved, A B A B …, each in its own indexed clone (`clones[i]`, copies of one
 * clone, so that each pays for its own upkeep: compaction, the snapshot's rewrite); a clone gets a commit per round.
 */
export async function benchOneFileSearchable(clones: string[], clis: string[], rounds: number, poll = false): Promise<Searchable[]> {
  // Not spawnSync: the watchers below must hear their events while a search runs.
  const search = (repo: string, cli: string, word: string, file: string) => {
    const [cmd, args] = commandOf(cli);
    return new Promise<boolean>((resolve) => execFile(cmd, [...args, 'search', word, '-k', '3', '--path', file, '--no-update', '--json'], { cwd: repo, env: ENV }, (_e, stdout) => resolve(String(stdout).includes(word))));
  };
  const out: Searchable[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [i, cli] of clis.entries()) {
      const repo = clones[i];
      const dir = path.join(repo, '.ocrag');
      const files = git(repo, 'ls-files', '*.rs', '*.ts', '*.py', '*.go').split('\n').filter(Boolean).slice(0, 40);
      const word = `zqxsearchable${Date.now().toString(36)}${round}`;
      const file = files[(round * clis.length + i) % files.length];
      fs.appendFileSync(path.join(repo, file), `\n// ${word} one-file bench edit\n`);
      git(repo, 'add', file);
      git(repo, '-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', `bench: one file ${word}`);
      const offset = logOf(repo).length;
      const timeFile = path.join(os.tmpdir(), `ocrag-bench-hook-time-${process.pid}`);
      const t = performance.now();
      const manifest = firstWrite(path.join(dir, 'manifests'), t);
      const snapshot = firstWrite(path.join(dir, 'resident'), t);
      // /usr/bin/time reports the run's CPU, all its threads; searches are not counted in it. The CLI starts as the
      // hook block starts it: the installed command by its first line (bench/command.ts), main.js with node.
      const hook = spawn('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, ...commandOf(cli).flat(), 'hook', 'post-commit'], { cwd: repo, env: ENV, stdio: 'ignore' });
      const exited = new Promise((resolve) => hook.once('exit', resolve));
      const polled: Pick<Searchable, 'searchFoundMs' | 'foundSearchStartMs'> = {};
      for (let searches = 0; poll && polled.searchFoundMs === undefined && searches < 50; searches++) {
        const asked = ms(t);
        if (await search(repo, cli, word, file)) Object.assign(polled, { searchFoundMs: ms(t), foundSearchStartMs: asked });
      }
      await waitForLogLine(repo, offset, /post-commit: (indexed|up to date|another run)/);
      const runEndMs = ms(t);
      await exited;
      const [user, sys] = fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
      const manifestMs = manifest.ms();
      const snapshotMs = snapshot.ms();
      manifest.close();
      snapshot.close();
      const s = performance.now();
      const found = await search(repo, cli, word, file);
      out.push({ cli, manifestMs, snapshotMs, runEndMs, hookCpuS: +(user + sys).toFixed(2), ...polled, searchAfterMs: ms(s), found });
    }
  }
  return out;
}


if (import.meta.url === `file://${process.argv[1]}`) {
  const source = process.argv[2];
  if (!source) throw new Error('usage: bench/hooks.ts <clone with history> | <indexed clone> --searchable [--poll] [--rounds n] [--cli dist/cli/main.js[=<its own clone>] …] [--json FILE]');
  if (process.argv.includes('--searchable')) {
    // --cli <build's dist/cli/main.js or its installed command, dist/cli/ocrag.cjs>[=<its own clone>]; by default every
    // build runs in the clone given first.
    const pairs = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--cli' ? [a.split('=')] : []));
    const clis = pairs.map(([cli]) => path.resolve(cli));
    const clones = pairs.map(([, clone]) => path.resolve(clone ?? source));
    const rounds = Number(option('--rounds')) || 5;
    const loadBefore = os.loadavg()[0];
    const runs = await benchOneFileSearchable(clis.length ? clones : [path.resolve(source)], clis.length ? clis : [CLI], rounds, process.argv.includes('--poll'));
    const keys = ['manifestMs', 'snapshotMs', 'runEndMs', 'hookCpuS', 'searchAfterMs', 'searchFoundMs', 'foundSearchStartMs'] as const;
    const summary = Object.fromEntries((clis.length ? clis : [CLI]).map((cli) => {
      const mine = runs.filter((r) => r.cli === cli);
      const row: Record<string, unknown> = { found: mine.map((r) => r.found).join(' ') };
      for (const k of keys) {
        const xs = mine.map((r) => r[k]).filter((x): x is number => x !== undefined);
        if (xs.length) Object.assign(row, { [k]: xs.join(' '), [`${k}P50`]: median(xs) });
      }
      return [cli, row];
    }));
    const result = { ...summary, load1m: `${loadBefore.toFixed(2)} → ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores` };
    console.log(JSON.stringify(result, null, 2));
    writeJsonResult(result);
  } else {
    console.log(JSON.stringify(await benchHooks(path.resolve(source)), null, 2));
  }
}
