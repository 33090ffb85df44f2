// `npm run bench [-- --repo DIR] [--large DIR] [--questions N] [--out DIR]`: every ratio issue 31 sets a target for,
// measured in one run on one machine, each against its baseline in interleaved rounds (each bench's own), then one
// table. Prints numbers; asserts nothing. The load average is printed beside each: on a shared machine it says how
// far to trust them.
//   --repo DIR      a git clone to measure on (default /tmp/tok-tokio); it is indexed first, and left as it was
//   --large DIR     a second, larger clone for search_code against rg (issue 31 names sympy); skipped if absent
//   --questions N   fresh-clone first answers to time (default 8 of bench/early-answer.ts's 22)
//   --out DIR       where each bench's JSON goes (default a temporary folder)
// Each step is its own bench, runnable alone: bench/index-cpu.ts, bench/early-answer.ts, bench/warm-search.ts,
// bench/mcp.ts, bench/hooks.ts --searchable, bench/status-poll.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { option } from './argv.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
/** The installed command (package.json `bin`), which git hooks and people start. */
const INSTALLED = path.join(ROOT, (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.ocrag);
const repo = path.resolve(option('--repo', '/tmp/tok-tokio')!);
const large = option('--large');
const questions = option('--questions', '8')!;
const out = path.resolve(option('--out') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-ratios-')));

type Json = Record<string, unknown>;
interface Line {
  what: string;
  value: (r: Record<string, Json>) => number | undefined;
  target: number;
  /** How the value is shown: a ratio (×), a share (%) or milliseconds. */
  unit: '×' | '%' | 'ms';
  note?: (r: Record<string, Json>) => string;
}

/** One bench run as a child process with its --json; its output passes through. False when it failed. */
function runBench(name: string, script: string, benchArgs: string[]): boolean {
  console.log(`\n== ${name}: node --import tsx ${script} ${benchArgs.join(' ')}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, script), ...benchArgs, '--json', path.join(out, `${name}.json`)], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) console.log(`${name}: exited ${r.status}; its lines are left out`);
  return r.status === 0;
}

const read = (name: string): Json => {
  const file = path.join(out, `${name}.json`);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Json) : {};
};

if (!fs.existsSync(path.join(repo, '.git'))) throw new Error(`--repo ${repo}: not a git clone (git clone https://github.com/tokio-rs/tokio ${repo})`);
console.log(`ocrag bench: issue 31's ratios on ${repo}${large ? ` and ${large}` : ''}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; JSON in ${out}`);
execFileSync(process.execPath, [CLI, 'index'], { cwd: repo, stdio: 'inherit' });

// The hook bench commits into its clone: a clone of its own, indexed.
const hookClone = path.join(out, 'hook-clone');
fs.rmSync(hookClone, { recursive: true, force: true });
execFileSync('git', ['clone', '-q', '--shared', repo, hookClone]);
execFileSync(process.execPath, [CLI, 'index'], { cwd: hookClone, stdio: 'ignore' });

runBench('index-cpu', 'bench/index-cpu.ts', [repo]);
runBench('early', 'bench/early-answer.ts', [repo, '--questions', questions]);
runBench('warm', 'bench/warm-search.ts', ['--repo', repo]);
runBench('mcp', 'bench/mcp.ts', [repo, '--queries', '100']);
if (large && fs.existsSync(large)) runBench('mcp-large', 'bench/mcp.ts', [path.resolve(large), '--queries', '100']);
// Through the installed command, as a hook block finds it on PATH (src/git/hook-block.ts).
runBench('hook', 'bench/hooks.ts', [hookClone, '--searchable', '--rounds', '5', '--cli', `${INSTALLED}=${hookClone}`]);
runBench('status', 'bench/status-poll.ts', []);
fs.rmSync(hookClone, { recursive: true, force: true });

const results: Record<string, Json> = Object.fromEntries(['index-cpu', 'early', 'warm', 'mcp', 'mcp-large', 'hook', 'status'].map((n) => [n, read(n)]));
/** A number a bench wrote, or undefined. */
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
/** bench/hooks.ts writes one row per build measured, keyed by its CLI path: this run has one. */
const hookRow = (r: Record<string, Json>) => Object.values(r.hook).find((v): v is Json => typeof v === 'object' && v !== null);
const LINES: Line[] = [
  { what: 'index CPU / tokenizing once (library as before the fused path)', value: (r) => num(r['index-cpu'].ratio), target: 2, unit: '×' },
  { what: 'first search until indexed / ocrag index alone', value: (r) => num(r.early.untilIndexedRatio), target: 1.05, unit: '×' },
  { what: 'first answer in a fresh clone / full index (median)', value: (r) => num(r.early.medianShare), target: 0.25, unit: '%', note: (r) => `top-10 overlap ≥ 6 for ${r.early.overlapAtLeast6}/${r.early.questions}` },
  { what: 'one-shot search with a server running / git grep (p50)', value: (r) => num(r.warm.warmRatio), target: 8, unit: '×' },
  { what: 'one-shot search, no server / git grep (p50)', value: (r) => num(r.warm.ownRatio), target: 15, unit: '×' },
  { what: `MCP search_code / rg (p50, new queries), ${path.basename(repo)}`, value: (r) => num(r.mcp.ratio), target: 1, unit: '×' },
  { what: `MCP search_code / rg (p50, new queries), ${large ? path.basename(large) : '--large not given'}`, value: (r) => num(r['mcp-large'].ratio), target: 1, unit: '×' },
  { what: 'one-file commit searchable after the hook starts (p50)', value: (r) => num(hookRow(r)?.manifestMsP50), target: 500, unit: 'ms' },
  { what: 'index_status {task_id} p95 while indexing 1,000 files', value: (r) => num(r.status.taskP95Ms), target: 50, unit: 'ms' },
];
const shown = (v: number, unit: Line['unit']) => (unit === '×' ? `${v.toFixed(2)}×` : unit === '%' ? `${(100 * v).toFixed(0)} %` : `${v.toFixed(0)} ms`);
console.log(`\n== issue 31's ratios (load average now ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
for (const line of LINES) {
  const v = line.value(results);
  const measured = typeof v === 'number' && Number.isFinite(v);
  const verdict = !measured ? 'not measured' : v <= line.target ? 'met' : 'not met';
  console.log(`${line.what.padEnd(66)} ${measured ? shown(v, line.unit).padStart(8) : '       -'}  target ≤ ${shown(line.target, line.unit).padEnd(7)} ${verdict}${measured && line.note ? `  (${line.note(results)})` : ''}`);
}
