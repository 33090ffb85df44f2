import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { readFields } from '../src/store/chunk-batch.js';
import type { ChunkStore } from '../src/store/contract.js';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = path.join(PROJECT_ROOT, 'dist', 'cli', 'main.js');
/** One model cache for the whole test run: the default model is built once (offline) and reused. */
export const TEST_CACHE = process.env.OCRAG_CACHE ?? path.join(PROJECT_ROOT, '.cache', 'ocrag');

export const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

// Baseline-compiled WebAssembly in this process and in every node process a test starts (test/support/liftoff.mjs
// says why): an index run of the fixture takes half the CPU.
v8.setFlagsFromString('--liftoff-only');
const LIFTOFF = `--import=${pathToFileURL(path.join(PROJECT_ROOT, 'test', 'support', 'liftoff.mjs')).href}`;
if (!process.env.NODE_OPTIONS?.includes(LIFTOFF)) process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, LIFTOFF].filter(Boolean).join(' ');

/** Folders this test file made, removed when its process ends (OCRAG_KEEP_TEMP=1 keeps them to look into a failure). */
const made: string[] = [];
process.on('exit', () => {
  if (process.env.OCRAG_KEEP_TEMP) return;
  for (const dir of made) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // A folder a test left read-only for a non-root user stays: the next boot's /tmp takes it.
    }
  }
});

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ocrag-${prefix}-`));
  made.push(dir);
  return dir;
}

/** A fresh copy of the fixture repository (fixtures/make-repo.sh), made with real git. */
export function makeFixtureRepo(): string {
  const dir = path.join(tempDir('repo'), 'sample');
  execFileSync('bash', [path.join(PROJECT_ROOT, 'fixtures', 'make-repo.sh'), dir], { stdio: 'pipe' });
  return dir;
}

/** For makeFixtureRepo: a pasted report of many words the repository never holds, and the one identifier that says where to look. */
export const LONG_QUESTION_WITH_IDENTIFIER =
  'Yesterday our release pipeline broke after upgrading the base image; the nightly job that renders reports for the finance team started failing on every run, ' +
  'and the operators noticed the scheduler logs filling with warnings about unexpected tokens. After bisecting, the culprit seems to be parseArgs receiving an ' +
  'extra trailing value when the wrapper script forwards quoted options, so the downstream exporter never gets the destination it expects.';

/** A small repository of two TypeScript and two Python files, one commit on main. */
export function twoLanguageRepo(): string {
  const repo = path.join(tempDir('two'), 'two');
  const files: Record<string, string> = {
    'src/cache.ts': 'export class LruCache {\n  get(key: string): string | undefined {\n    return this.map.get(key);\n  }\n  private map = new Map<string, string>();\n}\n',
    'src/router.ts': 'export function route(path: string): string {\n  return path.split("/").filter(Boolean).join(" > ");\n}\n',
    'tools/backup.py': 'def backup_database(path):\n    """Copies the database file to a dated backup."""\n    return path + ".bak"\n',
    'tools/report.py': 'class Report:\n    def render(self, rows):\n        return "\\n".join(str(r) for r in rows)\n',
  };
  return committedRepo(repo, files, 'two languages');
}

/** A new repository at `repo` holding these files (path → text) in one commit on main. */
export function committedRepo(repo: string, files: Record<string, string>, message: string): string {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), text);
  }
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', message);
  return repo;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_IDENTITY } }).trim();
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a user would: a separate process, no shell, stdin closed. */
export function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runCommand(process.execPath, [CLI, ...args], cwd, env);
}

export function runCommand(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, OCRAG_CACHE: TEST_CACHE, NO_COLOR: '1', ...GIT_IDENTITY, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export async function runJson<T>(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<T> {
  const r = await runCli([...args, '--json'], cwd, env);
  if (r.code !== 0) throw new Error(`ocrag ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** A fresh clone of a test repository (real git), in a temp folder of its own. */
export function cloneRepo(origin: string, name: string): string {
  const dir = path.join(tempDir(name), name);
  git(path.dirname(dir), 'clone', '-q', origin, dir);
  return dir;
}

/** `ocrag search --json --no-update` for each query in turn: two indexes that agree give equal lists. */
export async function answersOf(repo: string, queries: string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const q of queries) out.push(await runJson(['search', q, '-k', '5', '--no-update'], repo));
  return out;
}

/** Id and blob of every chunk a store holds. */
export async function storedChunks(store: ChunkStore): Promise<{ id: string; blob: string }[]> {
  const out: { id: string; blob: string }[] = [];
  for await (const batch of store.chunkColumns(null, ['id', 'blob'])) {
    const { id, blob } = readFields(batch, ['id', 'blob']);
    for (let i = 0; i < batch.numRows; i++) out.push({ id: id(i), blob: blob(i) });
  }
  return out;
}

/** A CA, and a certificate for 127.0.0.1 it signed, made with the openssl CLI. */
export function makeCertificates(dir: string): { ca: string; key: string; cert: string } {
  const [ca, caKey, key, csr, cert, ext] = ['ca.pem', 'ca.key', 'server.key', 'server.csr', 'server.pem', 'ext.cnf'].map((f) => path.join(dir, f));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', caKey, '-out', ca, '-days', '2', '-subj', '/CN=ocrag test CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', '/CN=127.0.0.1');
  fs.writeFileSync(ext, 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl('x509', '-req', '-in', csr, '-CA', ca, '-CAkey', caKey, '-CAcreateserial', '-out', cert, '-days', '2', '-extfile', ext);
  return { ca, key, cert };
}
