// Index CPU of this build against another, run side by side: `node --import tsx bench/index-cpu-pair.ts --base DIST
// [repo=/tmp/tok-tokio] [--rounds N] [--json FILE]` (DIST: the other build's dist/ folder). Each round clones the
// repository twice and runs both builds' `ocrag index` at the same time, one clone each, under /usr/bin/time (user +
// system, children included); prints each round's pair and the median of the paired differences.
//
// Why side by side: on the shared 2-core machine (load 10-15) the CPU of one tokio index run varied by ±1 s from run
// to run, interleaved runs included, so a cut of a few percent could not be told from noise. Two runs at once meet
// the same load: in an A/A round (two identical builds, 6 rounds, load 12-15) the paired differences stayed within
// ±0.25 s of 10 s. The runs compete with each other, so absolute times are higher than alone; compare the pairs.
// Asserts nothing.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeJsonResult } from './json-result.js';
import { option, positional } from './argv.js';
import { median } from './stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repo = path.resolve(positional() ?? '/tmp/tok-tokio');
const ROUNDS = Number(option('--rounds') ?? 5);
const base = option('--base');
if (!base) {
  console.error('usage: bench/index-cpu-pair.ts --base OTHER/dist [repo] [--rounds N]');
  process.exit(2);
}
if (!fs.existsSync('/usr/bin/time')) {
  console.log('index-cpu-pair: /usr/bin/time not found (apt-get install time); skipped');
  process.exit(0);
}
const CLIS = { base: path.join(path.resolve(base), 'cli', 'main.js'), this: path.join(ROOT, 'dist', 'cli', 'main.js') };

/** One build's full index of a fresh clone: its CPU milliseconds. */
function indexCpuMs(cli: string, copy: string): Promise<number> {
  const times = `${copy}.time`;
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-o', times, '-f', '%U %S', process.execPath, cli, 'index'], { cwd: copy, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`ocrag index (${cli}) exited ${code}: ${stderr.slice(-500)}`));
      const [user, system] = fs.readFileSync(times, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
      resolve((user + system) * 1000);
    });
  });
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-index-pair-'));
try {
  const rows: { base: number; this: number; load: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const copies = { base: path.join(work, `base-${round}`), this: path.join(work, `this-${round}`) };
    for (const copy of Object.values(copies)) execFileSync('git', ['clone', '-q', '--shared', repo, copy]);
    // Which build starts first alternates, in case starting first is an advantage.
    const order = round % 2 ? (['this', 'base'] as const) : (['base', 'this'] as const);
    const runs = order.map((which) => indexCpuMs(CLIS[which], copies[which]));
    const [first, second] = await Promise.all(runs);
    const cpu = order[0] === 'base' ? { base: first!, this: second! } : { base: second!, this: first! };
    rows.push({ ...cpu, load: os.loadavg()[0]! });
    console.log(`round ${round + 1}: base ${cpu.base.toFixed(0)} ms, this ${cpu.this.toFixed(0)} ms (${(cpu.this - cpu.base).toFixed(0)} ms), load ${os.loadavg()[0]!.toFixed(1)}`);
    for (const copy of Object.values(copies)) fs.rmSync(copy, { recursive: true, force: true });
  }
  const diffs = rows.map((r) => r.this - r.base);
  const [b, t] = [median(rows.map((r) => r.base)), median(rows.map((r) => r.this))];
  console.log(`${path.basename(repo)}: base CPU median ${b.toFixed(0)} ms, this ${t.toFixed(0)} ms (${(t / b).toFixed(3)}×); paired difference median ${median(diffs).toFixed(0)} ms, range ${Math.min(...diffs).toFixed(0)} to ${Math.max(...diffs).toFixed(0)}`);
  writeJsonResult({ repo: path.basename(repo), baseCpuMs: b, thisCpuMs: t, pairedDiffMedianMs: median(diffs), rows });
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
