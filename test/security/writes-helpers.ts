// Helpers of the "writes" tests (test/security/writes-*.test.ts, test/journeys/writes-*.test.ts): where ocrag writes.
import fs from 'node:fs';
import path from 'node:path';
import { committedRepo, runCli, tempDir } from '../helpers.js';

/** A small repository with code at depth 1 to 3, so a search from a subfolder has somewhere to start. */
export const WRITES_FILES: Record<string, string> = {
  'src/auth.py': 'import hmac\n\ndef check_password(given, stored):\n    """Compares a password with the stored hash in constant time."""\n    return hmac.compare_digest(given, stored)\n',
  'src/net/http/retry.py': 'def retry_request(send, attempts=3):\n    """Sends a request again when it fails, up to attempts times."""\n    for _ in range(attempts):\n        try:\n            return send()\n        except IOError:\n            pass\n',
  'docs/guide.md': '# Guide\n\n## Installing\n\nRun `make install` to install the tool; 安装需要管理员权限。\n',
};

export const WRITES_QUERIES = ['how is the password verified', 'send a request again when it fails'];

/** A new repository of WRITES_FILES at `<fresh temp>/<outer…>/<name>`, indexed with the built CLI. */
export async function indexedWritesRepo(label: string): Promise<string> {
  const repo = committedRepo(path.join(tempDir(label), 'repo'), WRITES_FILES, 'writes fixture');
  const r = await runCli(['index'], repo);
  if (r.code !== 0) throw new Error(`ocrag index: ${r.stderr}`);
  return repo;
}

/** A copy of a folder (its `.ocrag/` too) at `<fresh temp>/a/b/<name>`: two levels of parents to watch. */
export function copyNested(src: string, label: string): string {
  const dest = path.join(tempDir(label), 'a', 'b', path.basename(src));
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.cpSync(src, dest, { recursive: true, verbatimSymlinks: true });
  return dest;
}

/**
 * Every entry under `dir` (but those under `except`), with its kind, size and mtime: two listings differ when
 * anything was written, made or removed there, a folder's mtime telling of entries added or removed in it.
 */
export function listing(dir: string, except: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d)) {
      const p = path.join(d, name);
      if (except.some((e) => p === e || p.startsWith(e + path.sep))) continue;
      const s = fs.lstatSync(p);
      out[path.relative(dir, p)] = `${s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other'}:${s.isDirectory() ? '' : s.size}:${s.mtimeMs}`;
      if (s.isDirectory() && !s.isSymbolicLink()) walk(p);
    }
  };
  const s = fs.lstatSync(dir);
  out['.'] = `dir::${s.mtimeMs}`;
  walk(dir);
  return out;
}

/** One line on stderr, nothing on stdout: what every refusal looks like. */
export function oneLine(r: { stdout: string; stderr: string }): string {
  const lines = r.stderr.trim().split('\n');
  if (lines.length !== 1 || r.stdout !== '') throw new Error(`expected one line on stderr and nothing on stdout, got:\n${r.stdout}\n---\n${r.stderr}`);
  return lines[0];
}
