import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { CLI, GIT_IDENTITY, git, tempDir, TEST_CACHE } from '../helpers.js';

/**
 * A repository big enough for an index run to last several polls of the panel: `files` generated TypeScript
 * modules of a few functions each (every one different, so every chunk is embedded), a retry module the
 * searches look for, and a file in Chinese.
 */
export function bigRepo(files: number): string {
  const repo = path.join(tempDir('ui'), 'panel-fixture');
  fs.mkdirSync(path.join(repo, 'src', 'gen'), { recursive: true });
  const verbs = ['parse', 'render', 'encode', 'merge', 'schedule', 'validate', 'compress', 'resolve'];
  const nouns = ['invoice', 'ticket', 'sensor', 'playlist', 'warehouse', 'voucher', 'satellite', 'recipe'];
  for (let i = 0; i < files; i++) {
    const verb = verbs[i % verbs.length];
    const noun = nouns[Math.floor(i / verbs.length) % nouns.length];
    const body = [0, 1, 2, 3]
      .map((j) => `export function ${verb}${cap(noun)}${i}x${j}(input: string, limit = ${i * 7 + j}): string[] {\n  const out: string[] = [];\n  for (const part of input.split('${String.fromCharCode(97 + (j % 26))}')) {\n    if (out.length >= limit) break;\n    out.push(part.trim() + '${noun}-${i}-${j}');\n  }\n  return out;\n}\n`)
      .join('\n');
    fs.writeFileSync(path.join(repo, 'src', 'gen', `${verb}-${noun}-${i}.ts`), body);
  }
  fs.writeFileSync(
    path.join(repo, 'src', 'retry.ts'),
    'export async function retryWithBackoff<T>(run: () => Promise<T>, attempts = 5): Promise<T> {\n  let delay = 100;\n  for (let i = 1; ; i++) {\n    try {\n      return await run();\n    } catch (e) {\n      if (i >= attempts) throw e;\n      await new Promise((r) => setTimeout(r, delay));\n      delay *= 2; // exponential backoff between retries\n    }\n  }\n}\n',
  );
  fs.writeFileSync(path.join(repo, 'docs.md'), '# 重试策略\n\n网络请求失败时按指数退避重试，最多五次。<script>alert(1)</script>\n');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'panel fixture');
  return repo;
}

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

/** A line of 400 characters with no space a browser could break it at: a table of feature flags in one literal. */
export const WIDE_LINE = `export const FEATURE_FLAGS = '${Array.from({ length: 60 }, (_, i) => `flag${String(i).padStart(2, '0')}=on`).join(',')}`.slice(0, 399) + "'";

/**
 * A small repository to look at: code in three languages with comments, strings and keywords, a 400-character
 * line, a path far longer than a phone is wide, a file name with a space and a `#`, a binary file behind a .ts
 * name (skipped: binary), and beside it a folder of notes to add as a source, and a handbook: a plain folder (no
 * git) to index as a knowledge base of its own, in English and Chinese, with a binary file it skips.
 */
export function lookRepo(): { repo: string; notes: string; handbook: string } {
  const base = tempDir('ui-look');
  const repo = path.join(base, 'look-fixture');
  const notes = path.join(base, 'team notes');
  const deep = 'src/platform-services/notification-delivery-pipeline/outbound-channel-adapters/transactional-email';
  const files: Record<string, string> = {
    'src/retry.ts':
      '/** Retries a failing call with exponential backoff. */\nexport async function retryWithBackoff<T>(run: () => Promise<T>, attempts = 5): Promise<T> {\n  let delay = 100; // milliseconds\n  for (let i = 1; ; i++) {\n    try {\n      return await run();\n    } catch (e) {\n      if (i >= attempts) throw new Error(`gave up after ${i} attempts`);\n      await new Promise((r) => setTimeout(r, delay));\n      delay *= 2;\n    }\n  }\n}\n',
    'src/residents.py':
      'class ResidentRegistry:\n    """Every resident of the building, found by user id."""\n\n    def find_resident(self, user_id):\n        # every resident has an id; None when nobody lives here\n        return self.by_id.get(user_id, None)\n',
    'src/flags.ts': `// Feature flags of the checkout, one long literal.\n${WIDE_LINE}\nexport function flagEnabled(name: string): boolean {\n  return FEATURE_FLAGS.includes(name + '=on');\n}\n`,
    [`${deep}/smtp-relay-connection-pool-configuration.ts`]: 'export const SMTP_RELAY_POOL = { maxConnections: 8, idleTimeoutMs: 30_000, host: "smtp.internal" };\n',
    'src/odd name#1.ts': 'export function oddlyNamedHelper(): string {\n  return "a file whose name has a space and a hash";\n}\n',
    'docs.md': '# Deploying\n\nRun `make deploy` after the checks pass.\n',
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), text);
  }
  fs.mkdirSync(path.join(repo, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(repo, 'assets', 'logo.ts'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0, 1, 2, 3]));
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'look fixture');
  fs.mkdirSync(notes, { recursive: true });
  fs.writeFileSync(path.join(notes, 'on-call.md'), '# On-call handbook\n\nWhen the pager fires, acknowledge within five minutes and open an incident channel.\n');
  const handbook = path.join(base, 'escalation handbook');
  fs.mkdirSync(handbook, { recursive: true });
  fs.writeFileSync(path.join(handbook, 'escalation.md'), '# Escalation\n\nPage the secondary on-call engineer when nobody acknowledges within fifteen minutes.\n');
  fs.writeFileSync(path.join(handbook, '升级流程.md'), '# 升级流程\n\n十五分钟内无人确认时，呼叫备用值班工程师。\n');
  fs.writeFileSync(path.join(handbook, 'diagram.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0, 1, 2, 3]));
  return { repo, notes, handbook };
}

export interface RunningUi {
  url: string;
  port: number;
  token: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

/** `ocrag [flags] ui --port 0 --no-open --json` in `repo` (with `env` added), once it printed where it listens. */
export function startUi(repo: string, flags: string[] = [], env: Record<string, string> = {}): Promise<RunningUi> {
  const child = spawn(process.execPath, [CLI, ...flags, 'ui', '--port', '0', '--no-open', '--json'], {
    cwd: repo,
    env: { ...process.env, OCRAG_CACHE: TEST_CACHE, NO_COLOR: '1', ...GIT_IDENTITY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (b) => (stderr += b));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`ocrag ui exited ${code} before listening: ${stderr}`)));
    child.stdout!.on('data', (b) => {
      stdout += b;
      if (!stdout.includes('\n')) return;
      const where = JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as { url: string; port: number; token: string };
      resolve({
        ...where,
        child,
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request with exactly these headers (fetch would add or refuse some, Host and Origin among them). */
export function raw(port: number, method: string, pathAndQuery: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: pathAndQuery, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
