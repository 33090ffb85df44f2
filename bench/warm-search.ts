// A one-shot `ocrag search` against `git grep`, in one interleaved run on one repository (issue 31): each round runs
// `git grep -n <word>`, `ocrag search <word>` answering in its own process (OCRAG_WARM=0), and the same search
// answered by a running `ocrag mcp` of the repository (the warm path). Prints the p50 of each, their ratios to git
// grep, and the load average, which on a shared machine says how far to trust the numbers.
// `npm run bench:warm -- [--repo DIR] [--word WORD] [--rounds N] [--cli dist/cli/ocrag.cjs] [--baseline OTHER/dist/cli/ocrag.cjs]`;
// each is run as a shell runs it (the file itself, by its first line, as the installed command is); one without `#!`, with node;
// the repository must be indexed. `--json FILE`: the p50s and ratios. `--baseline`: another build of the CLI (a copy
// of main's, say), timed in the same rounds with its own server, for a before and after on one loaded machine.
// `--baseline-repo DIR`: a copy of the repository for the baseline, when the two builds keep search snapshots of
// different layouts (each would otherwise rebuild the other's at every search).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeJsonResult } from './json-result.js';
import { option } from './argv.js';
import { commandOf } from './command.js';
import { median } from './stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The command as installed (package.json \`bin\`), which is what a person or an agent runs.
const INSTALLED = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.ocrag;
const cli = path.resolve(option('--cli', path.join(ROOT, INSTALLED)));
const repo = path.resolve(option('--repo', '/tmp/tok-tokio'));
const word = option('--word', 'spawn_blocking');
const rounds = Number(option('--rounds', '15'));
const baselineOption = option('--baseline');
const baseline = baselineOption === undefined ? undefined : path.resolve(baselineOption);
const baselineRepo = path.resolve(option('--baseline-repo', repo));
const PRELOAD = pathToFileURL(path.join(ROOT, 'test/support/seams-preload.mjs')).href;

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd = repo): { ms: number; stdout: string } {
  const started = performance.now();
  const out = spawnSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - started;
  if (out.status !== 0 && !(cmd === 'git' && out.status === 1)) throw new Error(`${cmd} ${args.join(' ')} exited ${out.status}: ${out.stderr}`);
  return { ms, stdout: out.stdout };
}
/** The baseline build searches and serves its own copy of the repository (`--baseline-repo`). */
const repoOf = (entry: string) => (entry === cli ? repo : baselineRepo);
const search = (env: NodeJS.ProcessEnv = {}, entry = cli) => {
  const [cmd, args] = commandOf(entry);
  return run(cmd, [...args, 'search', word], env, repoOf(entry));
};

/** Which path answered one search, told by the CLI's test switch (src/util/test-seams.ts), kept out of the timed runs. */
function answeredBy(entry: string): string {
  const trace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-warm-')), 'trace');
  search({ NODE_OPTIONS: `--import=${PRELOAD}`, OCRAG_TEST_SEAMS: JSON.stringify({ warmTrace: trace }) }, entry);
  return fs.readFileSync(trace, 'utf8').trim();
}

/** A running `ocrag mcp` of the repository from this build, once it answers searches. */
async function startServer(entry: string) {
  const server = spawn(process.execPath, [entry, 'mcp'], { cwd: repoOf(entry), stdio: ['pipe', 'ignore', 'ignore'] });
  // The server listens once it has opened the index; its first search (preload) loads the model.
  const deadline = Date.now() + 120_000;
  while (!answeredBy(entry).startsWith('warm')) {
    if (Date.now() > deadline) throw new Error(`no warm answer from ocrag mcp in ${repo} (${answeredBy(entry)})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return server;
}

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const loadBefore = load();
const servers = [await startServer(cli)];
try {
  if (baseline) servers.push(await startServer(baseline));
  const cold = search({ OCRAG_WARM: '0' });
  if (search().stdout !== cold.stdout) throw new Error('the warm answer differs from the answer in process');
  if (baseline && search({}, baseline).stdout !== cold.stdout) throw new Error('the baseline answers otherwise');
  const times = { grep: [] as number[], cold: [] as number[], warm: [] as number[], baseCold: [] as number[], baseWarm: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    times.grep.push(run('git', ['grep', '-n', word]).ms);
    times.cold.push(search({ OCRAG_WARM: '0' }).ms);
    if (baseline) times.baseCold.push(search({ OCRAG_WARM: '0' }, baseline).ms);
    times.warm.push(search().ms);
    if (baseline) times.baseWarm.push(search({}, baseline).ms);
  }
  const grep = median(times.grep);
  const line = (name: string, ms: number[]) => console.log(`  ${name.padEnd(36)}p50 ${median(ms).toFixed(1).padStart(6)} ms  ${(median(ms) / grep).toFixed(1)}x git grep`);
  console.log(`${path.basename(repo)}, "${word}", ${rounds} interleaved rounds, load average ${loadBefore} before, ${load()} after`);
  // Node reads the whole certificate file named there at every start (40–90 ms on the 2-core machine, against
  // 20–30 ms for \`node -e 0\` without it); git grep does not. The installed command's launcher keeps it from Node
  // (scripts/launcher-head.sh); a build without one, or a command run with node, pays it.
  if (process.env.NODE_EXTRA_CA_CERTS) console.log(`NODE_EXTRA_CA_CERTS is set (${process.env.NODE_EXTRA_CA_CERTS}): a Node start reads it unless a launcher defers it; run with it unset to compare`);
  console.log(`  ${'git grep -n'.padEnd(36)}p50 ${grep.toFixed(1).padStart(6)} ms`);
  line('ocrag search, no server', times.cold);
  if (baseline) line('  baseline, no server', times.baseCold);
  line('ocrag search, mcp running', times.warm);
  if (baseline) line('  baseline, its mcp running', times.baseWarm);
  writeJsonResult({
    repo: path.basename(repo), word, rounds, gitGrepP50Ms: grep, ownP50Ms: median(times.cold), warmP50Ms: median(times.warm), ownRatio: median(times.cold) / grep, warmRatio: median(times.warm) / grep, load: os.loadavg()[0],
    ...(baseline ? { baselineOwnP50Ms: median(times.baseCold), baselineWarmP50Ms: median(times.baseWarm) } : {}),
  });
} finally {
  for (const server of servers) {
    server.stdin.end();
    server.kill('SIGTERM');
  }
}
