// A one-shot `ocrag search` against `git grep`, in one interleaved run on one repository (issue 31): each round runs
// `git grep -n <word>`, `ocrag search <word>` answering in its own process (OCRAG_WARM=0), and the same search
// answered by a running `ocrag mcp` of the repository (the warm path). Prints the p50 of each, their ratios to git
// grep, and the load average, which on a shared machine says how far to trust the numbers.
// `npm run bench:warm -- [--repo DIR] [--word WORD] [--rounds N] [--cli dist/cli/main.js]`; the repository must be indexed. `--json FILE`: the p50s and ratios.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeJsonResult } from './json-result.js';
import { option } from './argv.js';
import { median } from './stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.resolve(option('--cli', path.join(ROOT, 'dist/cli/main.js')));
const repo = path.resolve(option('--repo', '/tmp/tok-tokio'));
const word = option('--word', 'spawn_blocking');
const rounds = Number(option('--rounds', '15'));
const PRELOAD = pathToFileURL(path.join(ROOT, 'test/support/seams-preload.mjs')).href;

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): { ms: number; stdout: string } {
  const started = performance.now();
  const out = spawnSync(cmd, args, { cwd: repo, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - started;
  if (out.status !== 0 && !(cmd === 'git' && out.status === 1)) throw new Error(`${cmd} ${args.join(' ')} exited ${out.status}: ${out.stderr}`);
  return { ms, stdout: out.stdout };
}
const search = (env: NodeJS.ProcessEnv = {}) => run(process.execPath, [cli, 'search', word], env);

/** Which path answered one search, told by the CLI's test switch (src/util/test-seams.ts), kept out of the timed runs. */
function answeredBy(): string {
  const trace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-warm-')), 'trace');
  search({ NODE_OPTIONS: `--import=${PRELOAD}`, OCRAG_TEST_SEAMS: JSON.stringify({ warmTrace: trace }) });
  return fs.readFileSync(trace, 'utf8').trim();
}

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const loadBefore = load();
const server = spawn(process.execPath, [cli, 'mcp'], { cwd: repo, stdio: ['pipe', 'ignore', 'ignore'] });
try {
  // The server listens once it has opened the index; its first search (preload) loads the model.
  const deadline = Date.now() + 120_000;
  while (!answeredBy().startsWith('warm')) {
    if (Date.now() > deadline) throw new Error(`no warm answer from ocrag mcp in ${repo} (${answeredBy()})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const cold = search({ OCRAG_WARM: '0' });
  if (search().stdout !== cold.stdout) throw new Error('the warm answer differs from the answer in process');
  const times = { grep: [] as number[], cold: [] as number[], warm: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    times.grep.push(run('git', ['grep', '-n', word]).ms);
    times.cold.push(search({ OCRAG_WARM: '0' }).ms);
    times.warm.push(search().ms);
  }
  const grep = median(times.grep);
  console.log(`${path.basename(repo)}, "${word}", ${rounds} interleaved rounds, load average ${loadBefore} before, ${load()} after`);
  console.log(`  git grep -n                 p50 ${grep.toFixed(1)} ms`);
  console.log(`  ocrag search, no server     p50 ${median(times.cold).toFixed(1)} ms  ${(median(times.cold) / grep).toFixed(1)}x git grep`);
  console.log(`  ocrag search, mcp running   p50 ${median(times.warm).toFixed(1)} ms  ${(median(times.warm) / grep).toFixed(1)}x git grep`);
  writeJsonResult({ repo: path.basename(repo), word, rounds, gitGrepP50Ms: grep, ownP50Ms: median(times.cold), warmP50Ms: median(times.warm), ownRatio: median(times.cold) / grep, warmRatio: median(times.warm) / grep, load: os.loadavg()[0] });
} finally {
  server.stdin.end();
  server.kill('SIGTERM');
}
