// npm run bench:team [-- repo] [-- --scale]: a team index on object storage, measured as a team would feel it.
// Default: a real repository (default /tmp/bench-tokio), fresh clones, s3rver started here. CI publishes the commit
// 20 before HEAD; then the time to a first search and the bytes fetched for a fresh clone reading through the
// remote (`ocrag index`, then a search), against a full local index and an artifact import; the first `ocrag search`
// in a fresh clone with and without the remote (with it, the clone answers from the published set and copies its
// index in the background: how long until that is done, and what it fetched); then a clone at HEAD (20 commits
// on) and what it embeds. --scale: a synthetic remote of 20 repositories × 10 branches (bench/team-scale.ts).
// --cli DIST: run another build (a copy of main's dist/) for interleaved A/B runs. `sameAnswer` holds each first
// answer to the full local index's (the local first search's is partial by design while it indexes). Prints numbers.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { option, positional } from './argv.js';
import { startBenchS3, folderBytes } from './team-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// --cli DIST: another build's dist/ (e.g. a copy of main's), for interleaved A/B runs.
const CLI = path.join(path.resolve(option('--cli', path.join(ROOT, 'dist'))), 'cli', 'main.js');
const QUERY = 'spawn a background task';
const COMMITS_PAST = 20;

interface Run {
  seconds: number;
  /** User + system CPU of the process and the children it waited for, from /usr/bin/time (null where it is missing). */
  cpuSeconds: number | null;
  stdout: string;
  stderr: string;
}

const TIMED = fs.existsSync('/usr/bin/time');
const CPU_LINE = /^ocrag-bench-cpu=([\d.]+)\+([\d.]+)\n?/m;

/** The built CLI in its own process, as a user runs it; async so the in-process proxy keeps answering. */
async function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const { spawn } = await import('node:child_process');
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // On a shared machine CPU time says more than wall time (bench/share.ts).
    const [cmd, argv] = TIMED ? ['/usr/bin/time', ['-f', 'ocrag-bench-cpu=%U+%S', process.execPath, CLI, ...args]] : [process.execPath, [CLI, ...args]];
    const child = spawn(cmd, argv as string[], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const cpu = CPU_LINE.exec(stderr);
      stderr = stderr.replace(CPU_LINE, '').replace(/^Command exited with non-zero status \d+\n/m, '');
      if (code !== 0) reject(new Error(`ocrag ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ seconds, cpuSeconds: cpu ? +(Number(cpu[1]) + Number(cpu[2])).toFixed(2) : null, stdout, stderr });
    });
  });
}

function ratio(a: number | null, b: number | null): number | null {
  return a && b ? +(a / b).toFixed(1) : null;
}

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

function cloneAt(repo: string, work: string, name: string, rev: string): string {
  const dir = path.join(work, name);
  git(work, 'clone', '-q', '--no-hardlinks', repo, dir);
  git(dir, 'checkout', '-q', '-B', 'main', rev);
  return dir;
}

/** Until a clone's background index run has written its manifest and let go of the lock. */
async function indexWritten(dir: string): Promise<void> {
  const index = path.join(dir, '.ocrag');
  const manifests = path.join(index, 'manifests');
  for (let waited = 0; waited < 300_000; waited += 20) {
    const written = fs.existsSync(manifests) && fs.readdirSync(manifests).some((f) => f.endsWith('.json'));
    if (written && !fs.existsSync(path.join(index, 'index.lock'))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${dir}: no index after 5 minutes`);
}

const seconds = (n: number) => +n.toFixed(2);
const mib = (n: number) => +(n / 2 ** 20).toFixed(1);

async function main(): Promise<void> {
  if (process.argv.includes('--scale')) return (await import('./team-scale.js')).scaleBench();
  const repo = path.resolve(positional() ?? '/tmp/bench-tokio');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-team-bench-'));
  const s3 = await startBenchS3();
  const remote = { ...s3.env, OCRAG_REMOTE: 's3://team/org/tokio' };
  const loadBefore = +os.loadavg()[0].toFixed(2);
  try {
    const head = git(repo, 'rev-parse', 'HEAD');
    const published = git(repo, 'rev-parse', `HEAD~${COMMITS_PAST}`);

    // CI: a full local index of the published commit (the reference), then publish and export it.
    const ci = cloneAt(repo, work, 'ci', published);
    const full = await cli(['index', '--json'], ci);
    const fullSearch = await cli(['search', QUERY, '--json', '--no-update'], ci);
    const fullSummary = JSON.parse(full.stdout) as { files: number; chunksEmbedded: number; chunksTotal: number };
    const publish = await cli(['publish', '--json'], ci, remote);
    const publishAgain = await cli(['publish', '--json'], ci, remote);
    const artifact = path.join(work, 'index.tar');
    await cli(['export', '--out', artifact, '--json'], ci);

    // A teammate with the artifact.
    const imp = cloneAt(repo, work, 'import', published);
    const imported = await cli(['import', artifact, '--json'], imp);
    const importSearch = await cli(['search', QUERY, '--json', '--no-update'], imp);

    // A fresh clone reading through the remote.
    const fresh = cloneAt(repo, work, 'fresh', published);
    s3.reset();
    const readThrough = await cli(['index', '--json'], fresh, remote);
    const freshSearch = await cli(['search', QUERY, '--json', '--no-update'], fresh, remote);
    const fetched = s3.bytesOut();
    const rt = JSON.parse(readThrough.stdout) as { chunksEmbedded: number; remote?: { chunks: number; blobs: number; searchSet?: boolean } };

    // First searches in fresh clones, as a teammate types them: without a remote the search indexes the whole
    // clone first; with it, the clone answers from the published set and copies its index in the background.
    const localFirst = cloneAt(repo, work, 'local-first', published);
    const localFirstSearch = await cli(['search', QUERY, '--json'], localFirst);
    const remoteFirst = cloneAt(repo, work, 'remote-first', published);
    s3.reset();
    const remoteStarted = performance.now();
    const remoteFirstSearch = await cli(['search', QUERY, '--json'], remoteFirst, remote);
    const fetchedToAnswer = s3.bytesOut();
    await indexWritten(remoteFirst);
    const copiedSeconds = (performance.now() - remoteStarted) / 1000;
    const fetchedInAll = s3.bytesOut();
    // Without a remote the first search answers from the files indexed so far ("partial answer" on stderr) while
    // the rest is indexed behind it: only an answer from the whole commit is held to the full index's.
    const localFirstPartial = /partial answer/.test(localFirstSearch.stderr);
    const sameAnswer = {
      remoteAsFullIndex: remoteFirstSearch.stdout === fullSearch.stdout,
      localAsFullIndex: localFirstSearch.stdout === fullSearch.stdout,
      localPartial: localFirstPartial,
      importAsFullIndex: importSearch.stdout === fullSearch.stdout,
      readThroughAsFullIndex: freshSearch.stdout === fullSearch.stdout,
    };

    // A clone 20 commits past what CI published, and what CI's own clone embeds for the same 20 commits.
    const ahead = cloneAt(repo, work, 'ahead', head);
    s3.reset();
    const aheadIndex = JSON.parse((await cli(['index', '--json'], ahead, remote)).stdout) as { newBlobs: number; chunksEmbedded: number; remote?: { chunks: number } };
    const aheadFetched = s3.bytesOut();
    git(ci, 'checkout', '-q', head);
    const incremental = JSON.parse((await cli(['index', '--json'], ci)).stdout) as { newBlobs: number; chunksEmbedded: number };
    const listed = JSON.parse((await cli(['list', '--json'], ahead)).stdout) as { path: string; blob?: string; chunks: number }[];
    const changedPaths = new Set(git(repo, 'diff', '--name-only', published, head).split('\n'));
    const chunksOfChanged = listed.filter((f) => changedPaths.has(f.path)).reduce((n, f) => n + f.chunks, 0);

    const toFirstSearch = { fullLocal: full.seconds + fullSearch.seconds, artifact: imported.seconds + importSearch.seconds, remote: readThrough.seconds + freshSearch.seconds };
    console.log(
      JSON.stringify(
        {
          repo: path.basename(repo),
          loadAverage1m: { before: loadBefore, after: +os.loadavg()[0].toFixed(2) },
          files: fullSummary.files,
          chunks: fullSummary.chunksTotal,
          secondsToFirstSearch: { fullLocalIndex: seconds(toFirstSearch.fullLocal), artifactImport: seconds(toFirstSearch.artifact), remoteReadThrough: seconds(toFirstSearch.remote) },
          remoteShareOfFullIndex: +(toFirstSearch.remote / toFirstSearch.fullLocal).toFixed(3),
          firstSearchInFreshClone: {
            withoutRemoteSeconds: seconds(localFirstSearch.seconds),
            withRemoteSeconds: seconds(remoteFirstSearch.seconds),
            share: +(remoteFirstSearch.seconds / localFirstSearch.seconds).toFixed(3),
            sameAnswer,
            fetchedMiBByAnswer: mib(fetchedToAnswer),
            ownIndexCopiedSeconds: seconds(copiedSeconds),
            fetchedMiBInAll: mib(fetchedInAll),
          },
          bytes: { remoteFetchedByFreshClone: fetched, remoteFetchedMiB: mib(fetched), artifactMiB: mib(fs.statSync(artifact).size), remoteStoreMiB: mib(folderBytes(path.join(s3.directory, 'team'))) },
          freshClone: { chunksEmbedded: rt.chunksEmbedded, chunksCopied: rt.remote?.chunks ?? 0, blobsCopied: rt.remote?.blobs ?? 0, searchSetPlaced: rt.remote?.searchSet ?? false, indexSeconds: seconds(readThrough.seconds), indexCpuSeconds: readThrough.cpuSeconds, firstSearchSeconds: seconds(freshSearch.seconds) },
          fullLocal: { indexSeconds: seconds(full.seconds), indexCpuSeconds: full.cpuSeconds, firstSearchSeconds: seconds(fullSearch.seconds) },
          artifact: { importSeconds: seconds(imported.seconds), importCpuSeconds: imported.cpuSeconds, firstSearchSeconds: seconds(importSearch.seconds) },
          // The full local index's CPU over each copy's: the speed-ups with other processes' load taken out.
          cpuSpeedup: { artifactImport: ratio(full.cpuSeconds, imported.cpuSeconds), remoteReadThrough: ratio(full.cpuSeconds, readThrough.cpuSeconds) },
          publish: { firstSeconds: seconds(publish.seconds), againSeconds: seconds(publishAgain.seconds), summary: JSON.parse(publish.stdout) as unknown },
          cloneCommitsPast: {
            commits: COMMITS_PAST,
            changedFiles: changedPaths.size,
            newBlobs: aheadIndex.newBlobs,
            chunksEmbedded: aheadIndex.chunksEmbedded,
            chunksCopied: aheadIndex.remote?.chunks ?? 0,
            chunksOfChangedFiles: chunksOfChanged,
            fetchedMiB: mib(aheadFetched),
            ciIncrementalChunksEmbedded: incremental.chunksEmbedded,
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await s3.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
