// Index CPU against tokenizing (issue 31): `node --import tsx bench/index-cpu.ts [repo=/tmp/tok-tokio] [--rounds N] [--json FILE]`.
// In interleaved rounds: the CPU (user + system, the process and the threads and children it waited for, as
// /usr/bin/time reports it) of a full `ocrag index` of a fresh clone, and the CPU of tokenizing the same chunk texts
// once with the library, a fresh tokenizer each round, two ways (bench/tokenizers.ts): `memo`, the library as ocrag
// ran it before its fused path (the fast Unigram set-up and a word memo: the baseline issue 31's "3.75×" was taken
// against), and `library`, @huggingface/tokenizers exactly as tokenizer.json configures it (4–5× slower again).
// Prints the medians and the ratios; asserts nothing. To tell whether a change cut index CPU, run both builds side by
// side (bench/index-cpu-pair.ts): on a loaded machine one run's CPU varies more than most cuts.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDefaultModel } from '../src/embed/index.js';
import { writeJsonResult } from './json-result.js';
import { chunkTexts, makers, tokenizeCpuMs } from './tokenizers.js';
import { option, positional } from './argv.js';
import { median } from './stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
const repo = path.resolve(positional() ?? '/tmp/tok-tokio');
const ROUNDS = Number(option('--rounds') ?? 3);

/** A full index of a fresh clone: its CPU and wall milliseconds. */
function indexCpuMs(work: string, round: number): { cpu: number; wall: number } {
  const copy = path.join(work, `clone-${round}`);
  execFileSync('git', ['clone', '-q', '--shared', repo, copy]);
  const times = path.join(work, `time-${round}`);
  const started = performance.now();
  const r = spawnSync('/usr/bin/time', ['-o', times, '-f', '%U %S', process.execPath, CLI, 'index'], { cwd: copy, encoding: 'utf8' });
  const wall = performance.now() - started;
  if (r.status !== 0) throw new Error(`ocrag index exited ${r.status}: ${r.stderr}`);
  const [user, system] = fs.readFileSync(times, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  fs.rmSync(copy, { recursive: true, force: true });
  return { cpu: (user + system) * 1000, wall };
}

if (!fs.existsSync('/usr/bin/time')) {
  console.log('index-cpu: /usr/bin/time not found (apt-get install time); skipped');
  process.exit(0);
}
const ways = makers(await buildDefaultModel());
const texts = await chunkTexts(repo);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-index-cpu-'));
try {
  const index: number[] = [];
  const walls: number[] = [];
  const memo: number[] = [];
  const library: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const run = indexCpuMs(work, round);
    index.push(run.cpu);
    walls.push(run.wall);
    memo.push(tokenizeCpuMs(ways.memo, texts));
    library.push(tokenizeCpuMs(ways.library, texts));
  }
  const ratio = median(index) / median(memo);
  console.log(`${path.basename(repo)}: ${texts.length} chunk texts; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`  ocrag index (fresh clone) CPU median ${median(index).toFixed(0)} ms (wall ${median(walls).toFixed(0)} ms); runs ${index.map((v) => v.toFixed(0)).join(', ')}`);
  console.log(`  tokenizing once, memo      CPU median ${median(memo).toFixed(0)} ms; runs ${memo.map((v) => v.toFixed(0)).join(', ')}`);
  console.log(`  tokenizing once, library   CPU median ${median(library).toFixed(0)} ms; runs ${library.map((v) => v.toFixed(0)).join(', ')}`);
  console.log(`  index CPU / tokenizing CPU: ${ratio.toFixed(2)}× (memo), ${(median(index) / median(library)).toFixed(2)}× (library)`);
  writeJsonResult({ repo: path.basename(repo), texts: texts.length, indexCpuMs: median(index), indexWallMs: median(walls), memoTokenizeCpuMs: median(memo), libraryTokenizeCpuMs: median(library), ratio, load: os.loadavg()[0] });
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
