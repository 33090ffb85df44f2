// bench/team.ts --scale: a synthetic organisation on one remote store, 20 repositories × 10 branches, published
// in this process one after another (the lease's settle time shortened: there is one publisher at a time here).
// Measures publish time, store size, and what a fresh clone of one repository fetches while the store holds 1, 5,
// 10 and 20 repositories (one prefix for all: the unsharded case; a prefix per repository is the 1-repository point).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CodeIndex } from '../src/service/code-index.js';
import { publishHead } from '../src/share/publish.js';
import { setSeams } from '../test/support/seams.js';
import { folderBytes, startBenchS3 } from './team-server.js';

const REPOS = Number(process.env.TEAM_SCALE_REPOS) || 20;
const BRANCHES = Number(process.env.TEAM_SCALE_BRANCHES) || 10;
const FILES = 60;
const FUNCTIONS_PER_FILE = 5;
const WORDS = ['parse', 'token', 'cache', 'retry', 'queue', 'stream', 'buffer', 'socket', 'config', 'schema', 'render', 'index', 'merge', 'split', 'encode', 'decode', 'lease', 'batch', 'shard', 'route'];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' } }).trim();
}

/** A deterministic function of the seed: a name of three words and a small body that uses them. */
function fn(seed: number): string {
  const w = (k: number) => WORDS[(seed * 7 + k * 13) % WORDS.length];
  const name = `${w(0)}${w(1)[0].toUpperCase()}${w(1).slice(1)}${w(2)[0].toUpperCase()}${w(2).slice(1)}${seed}`;
  return `/** ${w(0)} the ${w(1)} of a ${w(2)} (variant ${seed}). */\nexport function ${name}(input: string[], limit = ${seed % 97}): string[] {\n  const out: string[] = [];\n  for (const item of input) {\n    if (out.length >= limit) break;\n    if (item.includes('${w(1)}')) out.push(item.split('${w(2)}').join('${w(0)}'));\n  }\n  return out;\n}\n`;
}

function fileText(repo: number, file: number, extra = 0): string {
  const parts: string[] = [];
  for (let f = 0; f < FUNCTIONS_PER_FILE + extra; f++) parts.push(fn(repo * 100_000 + file * 100 + f));
  return parts.join('\n');
}

/** A repository with a main branch and BRANCHES branches, each changing three files and adding one. */
function makeRepo(dir: string, repo: number): void {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  for (let f = 0; f < FILES; f++) fs.writeFileSync(path.join(dir, 'src', `m${f}.ts`), fileText(repo, f));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'main');
  for (let b = 0; b < BRANCHES; b++) {
    git(dir, 'checkout', '-q', '-b', `topic-${b}`, 'main');
    for (let k = 0; k < 3; k++) fs.writeFileSync(path.join(dir, 'src', `m${(b * 3 + k) % FILES}.ts`), fileText(repo, (b * 3 + k) % FILES, 1 + b));
    fs.writeFileSync(path.join(dir, 'src', `new${b}.ts`), fileText(repo, 1000 + b));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', `topic ${b}`);
  }
  git(dir, 'checkout', '-q', 'main');
}

async function publishBranch(dir: string, branch: string): Promise<{ seconds: number; chunksAdded: number }> {
  git(dir, 'checkout', '-q', branch);
  const index = await CodeIndex.open(dir);
  try {
    const s = await publishHead({ ctx: index.ctx, indexHead: () => index.index(), model: () => index.model() });
    return { seconds: s.seconds, chunksAdded: s.chunksAdded };
  } finally {
    await index.close();
  }
}

export async function scaleBench(): Promise<void> {
  const leaseSettleMs = 50;
  setSeams({ leaseSettleMs });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-team-scale-'));
  const s3 = await startBenchS3();
  Object.assign(process.env, s3.env, { OCRAG_REMOTE: 's3://team/org-all' });
  const started = performance.now();
  try {
    const origins = Array.from({ length: REPOS }, (_, r) => {
      const dir = path.join(work, `repo-${r}`);
      makeRepo(dir, r);
      return dir;
    });
    const publishes: { repo: number; branch: string; seconds: number; chunksAdded: number }[] = [];
    const clones: { reposInStore: number; storeMiB: number; fetchedMiB: number; cloneSeconds: number; chunksCopied: number; chunksEmbedded: number }[] = [];
    for (let r = 0; r < REPOS; r++) {
      for (const branch of ['main', ...Array.from({ length: BRANCHES }, (_, b) => `topic-${b}`)]) publishes.push({ repo: r, branch, ...(await publishBranch(origins[r], branch)) });
      if ([1, 5, 10, 20].includes(r + 1) || r + 1 === REPOS) clones.push({ reposInStore: r + 1, storeMiB: mib(folderBytes(path.join(s3.directory, 'team'))), ...(await freshClone(origins[0], work, `clone-${r}`, s3)) });
    }
    const first = publishes.filter((p) => p.branch === 'main');
    const branches = publishes.filter((p) => p.branch !== 'main');
    const storeBefore = folderBytes(path.join(s3.directory, 'team'));
    const compactStarted = performance.now();
    const index = await CodeIndex.open(origins[0]);
    try {
      await publishHead({ ctx: index.ctx, indexHead: () => index.index(), model: () => index.model() }, { compact: true });
    } finally {
      await index.close();
    }
    const compactSeconds = (performance.now() - compactStarted) / 1000;
    const afterCompaction = { storeMiB: mib(folderBytes(path.join(s3.directory, 'team'))), ...(await freshClone(origins[0], work, 'clone-compacted', s3)) };
    console.log(
      JSON.stringify(
        {
          repositories: REPOS,
          branchesEach: BRANCHES,
          filesPerRepository: FILES,
          publishes: publishes.length,
          publishSeconds: { mainMedian: median(first.map((p) => p.seconds)), branchMedian: median(branches.map((p) => p.seconds)), all: +((performance.now() - started) / 1000).toFixed(1) },
          chunksAdded: { mainMedian: median(first.map((p) => p.chunksAdded)), branchMedian: median(branches.map((p) => p.chunksAdded)), total: publishes.reduce((n, p) => n + p.chunksAdded, 0) },
          storeMiBBeforeCompaction: mib(storeBefore),
          compaction: { seconds: +compactSeconds.toFixed(1), ...afterCompaction },
          freshCloneOfOneRepository: clones,
          leaseSettleMs,
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

/** A fresh clone of the repository reading its main branch through the remote: bytes fetched, time, what it copied. */
async function freshClone(origin: string, work: string, name: string, s3: Awaited<ReturnType<typeof startBenchS3>>) {
  const dir = path.join(work, name);
  git(work, 'clone', '-q', origin, dir);
  s3.reset();
  const started = performance.now();
  const index = await CodeIndex.open(dir);
  try {
    const s = await index.index();
    return { fetchedMiB: mib(s3.bytesOut()), cloneSeconds: +((performance.now() - started) / 1000).toFixed(2), chunksCopied: s.remote?.chunks ?? 0, chunksEmbedded: s.chunksEmbedded };
  } finally {
    await index.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return +(s[Math.floor(s.length / 2)] ?? 0).toFixed(2);
}

const mib = (n: number) => +(n / 2 ** 20).toFixed(2);
