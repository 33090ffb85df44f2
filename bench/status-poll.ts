// node --import tsx bench/status-poll.ts [--files N] [--repo DIR] [--every MS] [--profile DIR] [--probe FILE] [--cli PATH]: how fast `index_status` answers while
// the MCP server indexes a repository, as an agent polling a run sees it. Prints numbers; asserts nothing.
//   A synthetic repository of N files (default 1000, fixtures/synthetic-repo.ts) is generated unless --repo names
//   one; `ocrag mcp` is spawned over stdio with the SDK client; index_codebase {full: true} starts a run, and every
//   MS (default 50) one index_status {task_id} (the cheap poll) and one index_status {} (the whole report) are
//   timed until the task ends, then IDLE_POLLS more of each with the server idle (the machine's own floor). Also
//   printed: the task's percent, files and chunks as the polls saw them.
//   --probe FILE: the server records each stretch its event loop was held over 20 ms (bench/loop-probe.mjs) in FILE,
//   and they are printed by the phase the next poll reported; with --profile, their times match the profile's.
//   --cli PATH: another build's dist/cli/main.js (a baseline), for runs interleaved with this one's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { writeSyntheticRepo } from '../fixtures/synthetic-repo.js';
import type { IndexTaskSnapshot } from '../src/session/index-tasks.js';
import { writeJsonResult } from './json-result.js';
import { option } from './argv.js';
import { percentile } from './stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const FILES = Number(option('--files') ?? 1000);
const EVERY_MS = Number(option('--every') ?? 50);
/** --profile DIR: the server writes a CPU profile there (node --cpu-prof), to see what holds its thread. */
const PROFILE = option('--profile');
/** --probe FILE: the server's event-loop stretches over 20 ms, one JSON line each (bench/loop-probe.mjs). */
const PROBE = option('--probe');
const CLI = path.resolve(option('--cli') ?? path.join(ROOT, 'dist', 'cli', 'main.js'));

/** Polls of each kind after the run, the server idle. */
const IDLE_POLLS = 40;

/** What index_status says of a task: the session's own snapshot type. */
type Task = IndexTaskSnapshot;

const summary = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms  p95 ${percentile(values, 95).toFixed(1)} ms  max ${Math.max(...values).toFixed(1)} ms  (n=${values.length})`;

async function call(client: Client, args: Record<string, unknown>): Promise<{ ms: number; content: Record<string, unknown> }> {
  const t = performance.now();
  const r = (await client.callTool({ name: 'index_status', arguments: args })) as CallToolResult;
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`index_status: ${JSON.stringify(r.content)}`);
  return { ms, content: r.structuredContent as Record<string, unknown> };
}

async function main(): Promise<void> {
  let repo = option('--repo');
  if (!repo) {
    repo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-status-poll-')), 'repo');
    await writeSyntheticRepo(repo, { files: FILES, seed: 7 });
  }
  console.log(`repository   ${repo} (${FILES} files generated unless --repo)`);
  console.log(`cli          ${CLI}`);
  console.log(`machine      ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const client = new Client({ name: 'ocrag-bench', version: '0' });
  const nodeArgs = [...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : []), ...(PROBE ? ['--import', path.join(ROOT, 'bench', 'loop-probe.mjs')] : [])];
  if (PROBE) fs.rmSync(PROBE, { force: true });
  const env = PROBE ? { ...getDefaultEnvironment(), OCRAG_LOOP_PROBE: path.resolve(PROBE) } : undefined;
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [...nodeArgs, CLI, 'mcp'], cwd: repo, env, stderr: 'ignore' }));
  try {
    const started = (await client.callTool({ name: 'index_codebase', arguments: { full: true } })) as CallToolResult;
    const taskId = (started.structuredContent as { taskId: string }).taskId;
    const t0 = performance.now();
    const byTask: number[] = [];
    const whole: number[] = [];
    const seen: string[] = [];
    const slow: { ms: number; line: string }[] = [];
    /** When each poll's answer came (wall clock, as the probe's) and the phase it reported. */
    const phases: { at: number; phase: string }[] = [];
    for (;;) {
      const tick = performance.now();
      const at = ((performance.now() - t0) / 1000).toFixed(1);
      const { ms, content } = await call(client, { task_id: taskId });
      byTask.push(ms);
      const wholeMs = (await call(client, {})).ms;
      whole.push(wholeMs);
      const task = content.task as Task;
      phases.push({ at: Date.now(), phase: task.phase ?? task.state });
      const rate = task.chunksPerSecond === null ? '-' : `${task.chunksPerSecond}/s`;
      const left = task.secondsLeft === undefined || task.secondsLeft === null ? '' : ` ~${task.secondsLeft}s left`;
      slow.push({ ms: Math.max(ms, wholeMs), line: `${at}s ${ms.toFixed(0)} ms + ${wholeMs.toFixed(0)} ms (${task.phase ?? task.state})` });
      seen.push(`${at}s ${task.percent}% ${task.phase ?? task.state} files ${task.files.done}/${task.files.total} chunks ${task.chunks} ${rate}${left}`);
      if (!['running', 'cancelling'].includes(task.state)) break;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, EVERY_MS - (performance.now() - tick))));
    }
    const runSeconds = (performance.now() - t0) / 1000;
    // The same polls of the idle server: on a loaded machine, what a poll costs with nothing held, to read the above by.
    const idleByTask: number[] = [];
    const idleWhole: number[] = [];
    for (let i = 0; i < IDLE_POLLS; i++) {
      const tick = performance.now();
      idleByTask.push((await call(client, { task_id: taskId })).ms);
      idleWhole.push((await call(client, {})).ms);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, EVERY_MS - (performance.now() - tick))));
    }
    console.log(`index run    ${runSeconds.toFixed(1)} s`);
    console.log(`index_status {task_id}  ${summary(byTask)}`);
    console.log(`index_status {}         ${summary(whole)}`);
    console.log(`idle server  {task_id}  ${summary(idleByTask)}`);
    console.log(`idle server  {}         ${summary(idleWhole)}`);
    console.log(`slowest      ${slow.sort((a, b) => b.ms - a.ms).slice(0, 6).map((s) => s.line).join('; ')}`);
    writeJsonResult({ files: FILES, runSeconds, taskP50Ms: percentile(byTask, 50), taskP95Ms: percentile(byTask, 95), wholeP50Ms: percentile(whole, 50), wholeP95Ms: percentile(whole, 95), polls: byTask.length, load: os.loadavg()[0] });
    // Every tenth poll's view of the task, and the last: does the bar move with the counts?
    for (const [i, line] of seen.entries()) if (i % 10 === 0 || i === seen.length - 1) console.log(`  ${line}`);
    if (PROBE) printBlocks(PROBE, phases);
  } finally {
    await client.close();
  }
}

/** The server's held stretches, by the phase the first poll answered after each reported. */
function printBlocks(file: string, phases: { at: number; phase: string }[]): void {
  if (!fs.existsSync(file)) return console.log('held loop   none over 20 ms');
  const blocks = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { ms: number; cpuMs: number; wallEnd: number });
  const byPhase = new Map<string, { ms: number; cpuMs: number }[]>();
  for (const b of blocks) {
    const phase = phases.find((p) => p.at >= b.wallEnd)?.phase ?? 'after';
    byPhase.set(phase, [...(byPhase.get(phase) ?? []), b]);
  }
  const most = (bs: { ms: number; cpuMs: number }[], key: 'ms' | 'cpuMs') => Math.max(...bs.map((b) => b[key])).toFixed(0);
  for (const [phase, bs] of byPhase) {
    const over = bs.filter((b) => b.cpuMs > 25).length;
    console.log(`held loop   ${phase.padEnd(12)} ${bs.length} stretches over 20 ms, longest ${most(bs, 'ms')} ms (${most(bs, 'cpuMs')} ms on a CPU); ${over} held a CPU over 25 ms`);
  }
}

await main();
