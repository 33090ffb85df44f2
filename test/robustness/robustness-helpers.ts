import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../src/config/config.js';
import { CodeIndex } from '../../src/service/code-index.js';
import type { ChunkRow } from '../../src/store/contract.js';
import { indexLayout } from '../../src/store/layout.js';
import { openStore } from '../../src/store/open-store.js';
import { listManifests, readManifest, type Manifest } from '../../src/store/manifest.js';
import { CLI, GIT_IDENTITY, storedChunks, TEST_CACHE, tempDir } from '../helpers.js';

// In-process CodeIndex instances load the model from the same cache as the CLI children.
process.env.OCRAG_CACHE ??= TEST_CACHE;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI and reports how it ended, signal included (runCli folds a kill into code -1). */
export function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, OCRAG_CACHE: TEST_CACHE, NO_COLOR: '1', ...GIT_IDENTITY, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A copy of a repository (and its .ocrag/) in a new temp folder; symlinks are copied as links. */
export function copyRepo(src: string, label = 'copy'): string {
  const dest = path.join(tempDir(label), path.basename(src));
  fs.cpSync(src, dest, { recursive: true, verbatimSymlinks: true });
  return dest;
}

export function layoutOf(repo: string) {
  return indexLayout({ root: repo, commonDir: path.join(repo, '.git') });
}

/** Every chunk id in the repository's store (duplicates kept, so callers can look for them). */
export async function storedIds(repo: string, dim = 512): Promise<string[]> {
  const store = await openStore(layoutOf(repo), dim, { create: false });
  try {
    return (await storedChunks(store)).map((c) => c.id);
  } finally {
    store.close();
  }
}

/** How many distinct contents the repository's store holds. */
export async function storedContentCount(repo: string, dim = 512): Promise<number> {
  const store = await openStore(layoutOf(repo), dim, { create: false });
  try {
    return await store.countContents();
  } finally {
    store.close();
  }
}

/** The manifests on disk by key, minus the fields that differ between two runs over the same commit. */
export function manifestsOf(repo: string): Record<string, Omit<Manifest, 'indexedAt'>> {
  const dir = layoutOf(repo).manifests;
  const out: Record<string, Omit<Manifest, 'indexedAt'>> = {};
  for (const key of listManifests(dir).sort()) {
    const m = readManifest(dir, key);
    if (!m) continue;
    const { indexedAt: _, ...rest } = m;
    out[key] = rest;
  }
  return out;
}

/** Opens the repository's index in this process, runs `use`, and closes it. */
export async function withIndex<T>(repo: string, use: (index: CodeIndex) => Promise<T>, flags: Partial<Config> = {}): Promise<T> {
  const index = await CodeIndex.open(repo, flags);
  try {
    return await use(index);
  } finally {
    await index.close();
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/** The rows two processes race to write in the concurrency test (4-d vectors, one blob). */
export function sharedRows(): ChunkRow[] {
  return Array.from({ length: 100 }, (_, i) => ({ id: `c${i.toString(16).padStart(39, '0')}`, blob: 'a'.repeat(40), startLine: i + 1, endLine: i + 1, language: 'text', symbol: '', text: `line ${i}`, terms: 'line', vector: new Float32Array([1, 0, 0, 0]) }));
}
