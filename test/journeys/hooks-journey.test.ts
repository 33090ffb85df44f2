import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import { CLI, committedRepo, GIT_IDENTITY, PROJECT_ROOT, runCli, runCommand, TEST_CACHE, tempDir } from '../helpers.js';

/*
 * The built CLI as a user runs it, in a sandbox holding the repository, HOME and TMPDIR: each journey ends by
 * checking that nothing outside the repository changed and that the answers from before still come back.
 */

const NODE_DIR = path.dirname(process.execPath);
const NO_OCRAG_PATH = [NODE_DIR, ...(process.env.PATH ?? '').split(path.delimiter).filter((d) => d && !fs.existsSync(path.join(d, 'ocrag')))].join(path.delimiter);

interface Sandbox {
  dir: string;
  repo: string;
  home: string;
  env: Record<string, string>;
}

function sandbox(label: string, files: Record<string, string>): Sandbox {
  const dir = tempDir(label);
  const home = path.join(dir, 'home');
  const tmp = path.join(dir, 'tmp');
  fs.mkdirSync(home);
  fs.mkdirSync(tmp);
  const repo = committedRepo(path.join(dir, 'repo'), files, 'first');
  return { dir, repo, home, env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), TMPDIR: tmp, PATH: NO_OCRAG_PATH } };
}

/** Every entry of the sandbox outside the repository, a file with its size and modification time. */
function outside(s: Sandbox): string[] {
  return (fs.readdirSync(s.dir, { recursive: true }) as string[])
    .filter((p) => p !== 'repo' && !p.startsWith(`repo${path.sep}`))
    .map((p) => {
      const st = fs.lstatSync(path.join(s.dir, p));
      // A folder's own time moves when a program makes and removes a file of its own in TMPDIR meanwhile.
      return st.isDirectory() ? `${p}/` : `${p} ${st.size} ${st.mtimeMs}`;
    })
    .sort();
}

async function ocrag(s: Sandbox, ...args: string[]) {
  return runCli(args, s.repo, s.env);
}

/** The best answer to each query, as its place and text (scores move as a commit adds files). */
async function answers(s: Sandbox, queries: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const q of queries) {
    const r = await ocrag(s, 'search', q, '-k', '1', '--json');
    assert.equal(r.code, 0, r.stderr);
    const [best] = JSON.parse(r.stdout) as { path: string; startLine: number; endLine: number; text: string }[];
    out.push(`${best.path}:${best.startLine}-${best.endLine}\n${best.text}`);
  }
  return out;
}

function commit(s: Sandbox, file: string, text: string): void {
  fs.writeFileSync(path.join(s.repo, file), text);
  // The hook's ocrag finds the model where every other run of the test does, not in the sandbox's HOME.
  const env = { ...process.env, OCRAG_CACHE: TEST_CACHE, ...GIT_IDENTITY, ...s.env };
  execFileSync('git', ['add', '-A'], { cwd: s.repo, env });
  execFileSync('git', ['commit', '-q', '-m', `add ${file}`], { cwd: s.repo, env });
}

const FILES = {
  'src/auth.py': 'def check_password(given, stored):\n    """Compare a login attempt with the stored hash in constant time."""\n    return hmac.compare_digest(given, stored)\n',
  'src/cache.py': 'def evict(cache):\n    """Drop the least recently used entry when the cache is full."""\n    cache.popitem(last=False)\n',
  '.gitignore': 'node_modules/\n',
};
const QUERIES = ['how is the password verified', 'drop the least recently used entry'];

describe('journeys with hooks', () => {
  test('ocrag as the project\'s dependency: install says the hooks do nothing yet, --project-bin lets them run it, uninstall takes both back', async () => {
    const s = sandbox('hooks-journey-dep', FILES);
    // As npm installs it: node_modules/ocrag (here a link to this checkout) and node_modules/.bin/ocrag.
    fs.mkdirSync(path.join(s.repo, 'node_modules', '.bin'), { recursive: true });
    fs.symlinkSync(PROJECT_ROOT, path.join(s.repo, 'node_modules', 'ocrag'));
    fs.symlinkSync('../ocrag/dist/cli/main.js', path.join(s.repo, 'node_modules', '.bin', 'ocrag'));
    // `npx ocrag …`: the program runs from the work tree (node keeps the links' paths, as for a real folder).
    const npx = (...args: string[]) => runCommand(process.execPath, ['--preserve-symlinks', '--preserve-symlinks-main', path.join(s.repo, 'node_modules', 'ocrag', 'dist', 'cli', 'main.js'), ...args], s.repo, s.env);
    assert.equal((await ocrag(s, 'index')).code, 0);
    const before = await answers(s, QUERIES);
    const untouched = outside(s);

    const plain = await npx('hooks', 'install');
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stderr, /^note: no ocrag outside this work tree was found, so the hooks do nothing yet: put ocrag on PATH \(npm install -g\), or run "ocrag hooks install --project-bin"/m);
    assert.ok(!fs.readFileSync(path.join(s.repo, '.git', 'hooks', 'post-commit'), 'utf8').includes('node_modules/ocrag'), 'no fallback into the work tree');
    const status = JSON.parse((await npx('hooks', 'status', '--json')).stdout) as { program: string | null; projectBin: boolean };
    assert.deepEqual([status.program, status.projectBin], [null, false]);

    const allowed = JSON.parse((await npx('hooks', 'install', '--project-bin', '--json')).stdout) as { program: string; projectBin: boolean };
    assert.deepEqual([allowed.program, allowed.projectBin], ['./node_modules/.bin/ocrag', true]);
    assert.match((await ocrag(s, 'hooks', 'status')).stdout, /^project bin: allowed in this clone/m);
    commit(s, 'src/temperature.py', 'def celsius_to_fahrenheit(c):\n    """Convert degrees Celsius to Fahrenheit."""\n    return c * 9 / 5 + 32\n');
    const log = path.join(s.repo, '.ocrag', 'log');
    for (const deadline = Date.now() + 60_000; !/post-commit: indexed/.test(fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '') && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 100));
    const found = JSON.parse((await ocrag(s, 'search', 'convert celsius to fahrenheit', '-k', '1', '--json', '--no-update')).stdout) as { path: string }[];
    assert.equal(found[0]?.path, 'src/temperature.py', 'the hook ran the project\'s ocrag and indexed the commit');

    const removed = await npx('hooks', 'uninstall');
    assert.equal(removed.code, 0);
    assert.throws(() => execFileSync('git', ['config', '--local', '--get', 'ocrag.projectBin'], { cwd: s.repo, stdio: 'pipe' }), 'the opt-in went with the hooks');
    assert.ok(!fs.existsSync(path.join(s.repo, '.git', 'hooks', 'post-commit')));
    assert.deepEqual(await answers(s, QUERIES), before);
    assert.deepEqual(outside(s), untouched, 'nothing outside the repository changed');
  });

  test('a global hooks folder: install refuses and says what to do; without hooks, search still brings the index up to date', async () => {
    const s = sandbox('hooks-journey-global', FILES);
    const globalHooks = path.join(s.home, 'githooks');
    fs.writeFileSync(path.join(s.home, '.gitconfig'), `[core]\n\thooksPath = ${globalHooks}\n`);
    assert.equal((await ocrag(s, 'index')).code, 0);
    const before = await answers(s, QUERIES);
    const untouched = outside(s);
    const r = await ocrag(s, 'hooks', 'install');
    assert.equal(r.code, 2);
    assert.equal(r.stderr.split('\n').length, 2, 'one line');
    assert.match(r.stderr, /run "ocrag hooks install --global-hooks"; else go without hooks/);
    const doctor = await ocrag(s, 'doctor');
    assert.match(doctor.stdout + doctor.stderr, /warn\s+hooks\s+no git hooks: the index is updated when you search/);
    commit(s, 'src/temperature.py', 'def celsius_to_fahrenheit(c):\n    """Convert degrees Celsius to Fahrenheit."""\n    return c * 9 / 5 + 32\n');
    const found = JSON.parse((await ocrag(s, 'search', 'convert celsius to fahrenheit', '-k', '1', '--json')).stdout) as { path: string }[];
    assert.equal(found[0]?.path, 'src/temperature.py');
    assert.deepEqual(await answers(s, QUERIES), before);
    assert.deepEqual(outside(s), untouched, 'the global hooks folder was never made');
  });

  test('an import from a URL that stalls, then Ctrl-C: the index answers as before and nothing is left behind', async () => {
    const s = sandbox('hooks-journey-import', FILES);
    assert.equal((await ocrag(s, 'index')).code, 0);
    const before = await answers(s, QUERIES);
    const untouched = outside(s);
    const server = http.createServer((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/index.tar`;
      const stalled = await runCli(['import', url], s.repo, { ...s.env, OCRAG_REMOTE_TIMEOUT_MS: '1000' });
      assert.deepEqual([stalled.code, stalled.stderr], [6, `ocrag: ${url}: stalled: less than 16 KiB in 1 s\n`]);
      // Patient this time (a minute per window), so the user gives up first.
      const child = spawn(process.execPath, [CLI, 'import', url], { cwd: s.repo, env: { ...process.env, OCRAG_CACHE: TEST_CACHE, ...GIT_IDENTITY, ...s.env, OCRAG_REMOTE_TIMEOUT_MS: '60000' }, stdio: 'ignore' });
      const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      const tmp = s.env.TMPDIR;
      for (const deadline = Date.now() + 30_000; fs.readdirSync(tmp).length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGINT');
      assert.equal(await ended, 'SIGINT');
    } finally {
      server.closeAllConnections();
      server.close();
    }
    assert.deepEqual(await answers(s, QUERIES), before);
    assert.deepEqual(outside(s), untouched, 'no temporary file left');
  });
});
