import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ENTRY, isGzipped } from '../../src/share/format.js';
import { artifactEntries, resealTrailer, writeArtifactEntries } from '../share/artifact-entries.js';
import { CLI, GIT_IDENTITY, TEST_CACHE } from '../helpers.js';

/** A file name as bytes: latin-1 text, so `'caf\xe9.py'` is the four bytes of `caf`, 0xE9 and `.py`. */
export function latin1(name: string): Buffer {
  return Buffer.from(name, 'latin1');
}

/** `dir/name` as a Buffer path: the exact bytes, whatever they are. */
export function under(dir: string, name: Buffer | string): Buffer {
  return Buffer.concat([Buffer.from(dir + '/'), typeof name === 'string' ? Buffer.from(name) : name]);
}

/** Writes files named by their exact bytes (folders made as needed; `/` in a name separates folders). */
export function writeFiles(dir: string, files: [Buffer, string][]): void {
  for (const [name, text] of files) {
    const slash = name.lastIndexOf(0x2f);
    if (slash >= 0) fs.mkdirSync(under(dir, name.subarray(0, slash)), { recursive: true });
    fs.writeFileSync(under(dir, name), text);
  }
}

/**
 * The bytes git's quoted form stands for, decoded here on its own (not with ocrag's decoder): what an agent does
 * with a `quotedPath` before it opens the file.
 */
export function unquoteGit(quoted: string): Buffer {
  assert(quoted.startsWith('"') && quoted.endsWith('"'), `not a quoted path: ${quoted}`);
  const named: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  const out: number[] = [];
  const body = quoted.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\') out.push(body.charCodeAt(i));
    else if (/[0-7]/.test(body[i + 1]!)) {
      out.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else out.push(named[body[++i]!]!);
  }
  return Buffer.from(out);
}

function assert(ok: boolean, message: string): asserts ok {
  if (!ok) throw new Error(message);
}

/** The file a result names, read as an agent would: by `quotedPath` when there is one, else by `path`. */
export function openResult(root: string, r: { path: string; quotedPath?: string }): string {
  return fs.readFileSync(r.quotedPath ? under(root, unquoteGit(r.quotedPath)) : path.join(root, r.path), 'utf8');
}

/** The built CLI's raw output bytes (to judge them as bytes: valid UTF-8, no escape sequences). */
export function runRaw(args: string[], cwd: string): { code: number; stdout: Buffer; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, OCRAG_CACHE: TEST_CACHE, NO_COLOR: '1', ...GIT_IDENTITY } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

/** `--json` output parsed, after checking it is valid UTF-8. */
export function rawJson<T>(args: string[], cwd: string): T {
  const r = runRaw([...args, '--json'], cwd);
  if (r.code !== 0) throw new Error(`ocrag ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  assert(isUtf8(r.stdout), `ocrag ${args.join(' ')} --json printed bytes that are not UTF-8`);
  return JSON.parse(r.stdout.toString('utf8')) as T;
}

/** `git ls-files` as git prints it (core.quotePath on): the quoted form of every name that needs one. */
export function gitLsFiles(repo: string): string[] {
  return execFileSync('git', ['-c', 'core.quotePath=true', 'ls-files'], { cwd: repo, encoding: 'latin1' }).split('\n').filter(Boolean);
}

/**
 * A copy of the artifact `src` whose manifest `change` edits, its digests made consistent again: only the edit is
 * wrong, as an attacker who rewrites an artifact would leave it.
 */
export async function artifactWithManifest(src: string, dst: string, change: (manifest: { files: Record<string, string> }) => void): Promise<string> {
  const entries = await artifactEntries(src);
  const manifest = entries.find((e) => e.name === ENTRY.manifest)!;
  const packed = isGzipped(manifest.name);
  const value = JSON.parse((packed ? gunzipSync(manifest.body) : manifest.body).toString('utf8'));
  change(value);
  const text = Buffer.from(JSON.stringify(value));
  manifest.body = packed ? gzipSync(text) : text;
  resealTrailer(entries);
  return writeArtifactEntries(dst, entries);
}
