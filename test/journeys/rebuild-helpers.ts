// What the rebuild journeys share: the built CLI run as a user runs it, in a sandbox whose HOME and TMPDIR are
// folders of the test, so "nothing changed outside the repository" is a listing of the repository's parent.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, GIT_IDENTITY, makeFixtureRepo, TEST_CACHE, tempDir } from '../helpers.js';

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The sandbox beside the repository: HOME and TMPDIR of every run, so a write to either shows in the listing. */
export function sandboxEnv(repo: string): NodeJS.ProcessEnv {
  const sandbox = path.join(path.dirname(repo), 'sandbox');
  for (const dir of ['home', 'tmp']) fs.mkdirSync(path.join(sandbox, dir), { recursive: true });
  return { HOME: path.join(sandbox, 'home'), TMPDIR: path.join(sandbox, 'tmp') };
}

/** Starts `ocrag <args>` in `cwd`; `ended` resolves with how it ended (a signal included). */
export function startOcrag(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): { child: ChildProcess; ended: Promise<Ended> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, OCRAG_CACHE: TEST_CACHE, NO_COLOR: '1', ...GIT_IDENTITY, ...sandboxEnv(cwd), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (b) => (stdout += b));
  child.stderr!.on('data', (b) => (stderr += b));
  const ended = new Promise<Ended>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, ended };
}

export function ocrag(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ended> {
  return startOcrag(args, cwd, env).ended;
}

/** The answers a user compares: `search --json` for the journeys' query, as printed. */
export const QUERY = 'parse command line arguments';

export async function answers(repo: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const r = await ocrag(['search', QUERY, '-k', '3', '--json'], repo, env);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

/** Every path below the repository's parent but the repository itself, with its size: what a run may not change. */
export function outside(repo: string): string[] {
  const parent = path.dirname(repo);
  const out: string[] = [];
  for (const entry of fs.readdirSync(parent, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    if (file === repo || file.startsWith(repo + path.sep)) continue;
    out.push(`${path.relative(parent, file)} ${entry.isFile() ? fs.statSync(file).size : 'd'}`);
  }
  return out.sort();
}

/** A copy of the indexed repository in a fresh temp folder (cp -r: one index per test file). */
export function copyOf(repo: string, label: string): string {
  const dest = path.join(tempDir(label), path.basename(repo));
  fs.cpSync(repo, dest, { recursive: true, verbatimSymlinks: true });
  sandboxEnv(dest);
  return dest;
}

/** No build folder, no swap journal: what every run leaves once it (or the next command) has tidied up. */
export function assertTidy(repo: string): void {
  const left = fs.readdirSync(path.join(repo, '.ocrag')).filter((n) => n.startsWith('staging-') || n === 'rebuild-swap.json' || n.endsWith('.tmp'));
  assert.deepEqual(left, [], 'no build folder, journal or temp file is left in .ocrag');
}

/** Holds runs at `point` (see checkpoint in src/util/crash-point.ts) until `release` is called. */
export function gate(dir: string, point: string): { reached: () => Promise<void>; release: () => void } {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, point);
  fs.rmSync(`${file}.reached`, { force: true });
  fs.writeFileSync(file, '');
  return {
    reached: async () => {
      for (const deadline = Date.now() + 120_000; !fs.existsSync(`${file}.reached`); ) {
        if (Date.now() > deadline) throw new Error(`no run reached ${point}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    release: () => fs.rmSync(file, { force: true }),
  };
}

/** The fixture repository indexed once, and its answers: what each journey copies and compares with. */
export async function indexedFixture(): Promise<{ base: string; previous: string }> {
  const base = makeFixtureRepo();
  const indexed = await ocrag(['index'], base);
  assert.equal(indexed.code, 0, indexed.stderr);
  return { base, previous: await answers(base) };
}
