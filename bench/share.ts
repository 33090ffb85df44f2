// node --import tsx bench/share.ts [repo] [--cli DIST]: team index sharing on a real repository. Prints numbers; asserts nothing.
// Works on two fresh clones of the repository (default /tmp/bench-repos/tokio), never on the repository itself:
// A indexes from scratch and exports, B imports. Needs `npm run build` first (it runs the built CLI).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { option, positional } from './argv.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// --cli DIST: another build's dist/ (e.g. a copy of main's), for interleaved A/B runs.
const CLI = path.join(path.resolve(option('--cli', path.join(ROOT, 'dist'))), 'cli', 'main.js');
const QUERIES = ['spawn a background task', 'shutdown gracefully when a signal arrives', 'read bytes from a TCP stream', 'timeout', 'Semaphore'];

interface Run {
  seconds: number;
  /** Peak resident memory of the process, from /usr/bin/time (null where it is missing). */
  maxRssMiB: number | null;
  /**
   * CPU time, user + system, of the process and the children it waited for (git, an index run's restart), from
   * /usr/bin/time: on a shared machine (load 10-15 on 2 vCPUs) wall times swing ±40 % run to run, CPU ±15 %.
   */
  cpuSeconds: number | null;
  stdout: string;
}

function cli(args: string[], cwd: string): Run {
  const timed = fs.existsSync('/usr/bin/time');
  const [cmd, argv] = timed ? ['/usr/bin/time', ['-f', 'maxrss_kib=%M cpu_s=%U+%S', process.execPath, CLI, ...args]] : [process.execPath, [CLI, ...args]];
  const started = performance.now();
  const r = spawnSync(cmd, argv as string[], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 256 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`ocrag ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const rss = /maxrss_kib=(\d+)/.exec(r.stderr ?? '');
  const cpu = /cpu_s=([\d.]+)\+([\d.]+)/.exec(r.stderr ?? '');
  return { seconds, maxRssMiB: rss ? Math.round(Number(rss[1]) / 1024) : null, cpuSeconds: cpu ? +(Number(cpu[1]) + Number(cpu[2])).toFixed(2) : null, stdout: r.stdout };
}

function cloneOf(repo: string, work: string, name: string): string {
  const dir = path.join(work, name);
  const r = spawnSync('git', ['clone', '-q', '--no-hardlinks', repo, dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git clone failed: ${r.stderr}`);
  return dir;
}

function main(): void {
  const repo = path.resolve(positional() ?? '/tmp/bench-repos/tokio');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-share-bench-'));
  // Timings on a shared machine mean little without the load they ran under.
  const loadBefore = os.loadavg().map((l) => +l.toFixed(2));
  try {
    const a = cloneOf(repo, work, 'a');
    const b = cloneOf(repo, work, 'b');
    const artifact = path.join(work, 'index.tar');

    const index = cli(['index', '--json'], a);
    const indexed = JSON.parse(index.stdout) as { files: number; chunksEmbedded: number; seconds: number };
    const exported = cli(['export', '--out', artifact, '--json'], a);
    const exportSummary = JSON.parse(exported.stdout) as { counts: { chunks: number; bytes: number }; seconds: number };
    const check = cli(['export', '--check', artifact, '--json'], a);
    const imported = cli(['import', artifact, '--json'], b);
    const importSummary = JSON.parse(imported.stdout) as { chunksAdded: number; seconds: number };
    const reindex = JSON.parse(cli(['index', '--json'], b).stdout) as { upToDate: boolean; chunksEmbedded: number };
    const sameResults = QUERIES.every((q) => cli(['search', q, '-k', '10', '--json', '--no-update'], a).stdout === cli(['search', q, '-k', '10', '--json', '--no-update'], b).stdout);
    const again = cli(['import', artifact, '--json'], b);

    const bytes = fs.statSync(artifact).size;
    const result = {
      repo: path.basename(repo),
      loadAverage1m: { before: loadBefore[0], after: +os.loadavg()[0].toFixed(2) },
      files: indexed.files,
      chunks: exportSummary.counts.chunks,
      indexFromScratchSeconds: +index.seconds.toFixed(2),
      indexFromScratchInProcessSeconds: +indexed.seconds.toFixed(2),
      indexFromScratchMaxRssMiB: index.maxRssMiB,
      indexFromScratchCpuSeconds: index.cpuSeconds,
      exportSeconds: +exported.seconds.toFixed(2),
      exportInProcessSeconds: +exportSummary.seconds.toFixed(2),
      exportMaxRssMiB: exported.maxRssMiB,
      artifactMiB: +(bytes / 1024 / 1024).toFixed(1),
      unpackedMiB: +(exportSummary.counts.bytes / 1024 / 1024).toFixed(1),
      checkSeconds: +check.seconds.toFixed(2),
      importSeconds: +imported.seconds.toFixed(2),
      importInProcessSeconds: +importSummary.seconds.toFixed(2),
      importMaxRssMiB: imported.maxRssMiB,
      importCpuSeconds: imported.cpuSeconds,
      importChunksAdded: importSummary.chunksAdded,
      importAgainSeconds: +again.seconds.toFixed(2),
      importAgainChunksAdded: (JSON.parse(again.stdout) as { chunksAdded: number }).chunksAdded,
      indexAfterImport: { upToDate: reindex.upToDate, chunksEmbedded: reindex.chunksEmbedded },
      sameSearchResults: sameResults,
      importSpeedupOverIndexing: +(index.seconds / imported.seconds).toFixed(1),
      // Without process start-up (node, modules), which both commands pay alike.
      importSpeedupInProcess: +(indexed.seconds / importSummary.seconds).toFixed(1),
      // CPU against CPU: what the ratio is once the load of other processes is taken out.
      importSpeedupCpu: index.cpuSeconds && imported.cpuSeconds ? +(index.cpuSeconds / imported.cpuSeconds).toFixed(1) : null,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main();
