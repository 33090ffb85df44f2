// `ocrag search` asking a running server of its repository (src/session/warm/): a real repository, a real
// `ocrag mcp` (and `ocrag watch`) process, the built CLI. Which path answered is told by the CLI's test switch
// (warmTrace); the answer must be byte for byte the one the CLI gives in its own process (OCRAG_WARM=0).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CLI, git, GIT_IDENTITY, makeFixtureRepo, runCli, runJson, tempDir, TEST_CACHE, type CliResult } from '../helpers.js';
import { servedFixture } from '../mcp/mcp-helpers.js';
import { seamEnv } from '../support/seams.js';

const WARM = '.ocrag/warm';

/** The search, with the line saying which path answered it. */
async function searchTraced(repo: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult & { path: string }> {
  const trace = path.join(tempDir('trace'), 'trace');
  const r = await runCli(['search', ...args], repo, { ...seamEnv({ warmTrace: trace }), ...env });
  return { ...r, path: fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').trim() : '' };
}

/** The same search answered in the CLI's own process. */
const searchHere = (repo: string, args: string[]) => runCli(['search', ...args], repo, { OCRAG_WARM: '0' });

/** The record a server wrote once it listens. */
async function serverRecord(repo: string): Promise<{ pid: number; version: string; root: string }> {
  for (let i = 0; i < 600; i++) {
    const dir = path.join(repo, WARM);
    const name = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.json')) : undefined;
    if (name) return JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no server record in ${repo}`);
}

describe('ocrag search through a running ocrag mcp', () => {
  let repo: string;
  let client: Client;
  before(async () => {
    ({ repo, client } = await servedFixture());
    await serverRecord(repo);
  });
  after(async () => {
    await client?.close();
  });

  it("loads no crypto for an answer the server gives: with NODE_EXTRA_CA_CERTS set, loading it costs the start ~4-12 ms", async () => {
    const log = path.join(tempDir('loads'), 'loaded.txt');
    const preload = path.join(path.dirname(log), 'preload.cjs');
    fs.writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(log)}, process.moduleLoadList.join('\\n')));\n`);
    const trace = path.join(path.dirname(log), 'trace');
    const seams = seamEnv({ warmTrace: trace });
    const r = await runCli(['search', '--json', 'parse command line arguments'], repo, { ...seams, NODE_OPTIONS: `${seams.NODE_OPTIONS} --require=${preload}` });
    assert.equal(r.code, 0, r.stderr);
    assert.match(fs.readFileSync(trace, 'utf8'), /^warm/, 'the server answered');
    const loaded = fs.readFileSync(log, 'utf8').split('\n');
    assert.ok(loaded.includes('NativeModule net'), 'Node modules in the trace (the check works)');
    assert.deepEqual(loaded.filter((m) => /crypto/.test(m)), [], 'crypto loaded by a search the server answered');
  });

  it('answers every format and filter byte for byte as the CLI does alone, and says the server answered', async () => {
    const asks = [
      ['--json', 'parse command line arguments'],
      ['parse command line arguments'],
      ['--format', 'json', '-k', '3', 'retry with backoff'],
      ['--json', '--path', 'src/**', '--whole', 'configuration file'],
      ['--json', '--language', 'python', 'read a file'],
      ['--max-tokens', '120', '--json', 'parse command line arguments'],
      ['--max-tokens', '120', 'parse command line arguments'],
      ['--json', '解析 命令行 参数'],
      ['--json', '--min-match', '0.99', 'xyzzy frobnicate quux'],
      ['--json', '--committed-only', '--min-score', '0.2', 'error handling'],
      ['--json', '--no-update', 'error handling'],
    ];
    for (const args of asks) {
      const [warm, here] = [await searchTraced(repo, args), await searchHere(repo, args)];
      assert.match(warm.path, /^warm \d+$/, `${args.join(' ')}: ${warm.path}`);
      assert.equal(warm.code, here.code, args.join(' '));
      assert.equal(warm.stdout, here.stdout, args.join(' '));
      assert.equal(warm.stderr, here.stderr, args.join(' '));
    }
  });

  it('answers the installed command, which defers NODE_EXTRA_CA_CERTS, though the server was started with node', async () => {
    // The command's sh launcher moves the variable to OCRAG_NODE_EXTRA_CA_CERTS (scripts/launcher-head.sh): not a
    // setting of the search, so not another environment.
    const args = ['--json', 'parse command line arguments'];
    const deferred = await searchTraced(repo, args, { NODE_EXTRA_CA_CERTS: '', OCRAG_NODE_EXTRA_CA_CERTS: path.join(tempDir('ca'), 'ca.pem') });
    assert.match(deferred.path, /^warm \d+$/, deferred.path);
    assert.equal(deferred.stdout, (await searchHere(repo, args)).stdout);
  });

  it('sees an uncommitted edit, as a fresh search does', async () => {
    const file = path.join(repo, 'src', 'warm_edit.py');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'def reticulate_splines(count):\n    """Reticulates the splines of the warm path test."""\n    return count * 2\n');
    try {
      const args = ['--json', '-k', '3', 'reticulate splines'];
      const warm = await searchTraced(repo, args);
      assert.match(warm.path, /^warm /);
      assert.equal((JSON.parse(warm.stdout) as { path: string }[])[0].path, 'src/warm_edit.py');
      assert.equal(warm.stdout, (await searchHere(repo, args)).stdout);
    } finally {
      fs.rmSync(file);
    }
  });

  it('refuses a question for another root, and a CLI given other flags answers itself', async () => {
    const record = await serverRecord(repo);
    const reply = await ask(path.join(repo, WARM, `${record.pid}.sock`), { ...question(record), root: tempDir('elsewhere') });
    assert.equal(reply.declined, 'another root');
    assert.ok(!('results' in reply));
    const flagged = await searchTraced(repo, ['--json', '--exclude', 'docs/**', 'parse command line arguments']);
    assert.equal(flagged.path, 'cold declined: other flags');
  });

  it('leaves a worktree of the repository, another root sharing its index folder, to answer itself', async () => {
    const worktree = path.join(tempDir('worktree'), 'wt');
    git(repo, 'worktree', 'add', '-q', '--detach', worktree);
    const args = ['--json', '-k', '3', 'parse command line arguments'];
    const r = await searchTraced(worktree, args);
    assert.equal(r.path, 'cold no server');
    assert.equal(r.stdout, (await searchHere(worktree, args)).stdout);
  });
});

describe('what the CLI does not trust in .ocrag/warm', () => {
  let repo: string;
  let record: { pid: number; version: string; root: string };
  let expected: string;
  const args = ['--json', 'parse command line arguments'];
  before(async () => {
    repo = makeFixtureRepo();
    await runJson(['index'], repo);
    // A real server's record, for the build's version the CLI checks.
    const watch = startWatch(repo);
    record = await serverRecord(repo);
    await stop(watch);
    expected = (await searchHere(repo, args)).stdout;
  });

  /** A server of the test's own that answers anything with a made-up result, counting who asked. */
  async function impostor(folder: string): Promise<{ asked: () => number; close: () => Promise<void> }> {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const socket = path.join(folder, `${process.pid}.sock`);
    let asked = 0;
    const conns = new Set<net.Socket>();
    const server = net.createServer((conn) => {
      asked++;
      conns.add(conn);
      conn.end(`${JSON.stringify({ root: repo, version: record.version, pid: process.pid, results: [{ path: 'IMPOSTOR', startLine: 1, endLine: 1, language: 'x', symbol: '', score: 1, text: 'x' }], notices: [] })}\n`);
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    fs.writeFileSync(path.join(folder, `${process.pid}.json`), JSON.stringify({ ...record, pid: process.pid, socket }));
    return {
      asked: () => asked,
      close: async () => {
        for (const conn of conns) conn.destroy();
        server.close();
      },
    };
  }

  it('talks to a socket it may trust (the control), and to none behind a link, of another owner, or in an open folder', async () => {
    const warmDir = path.join(repo, WARM);
    fs.rmSync(warmDir, { recursive: true, force: true });
    const fake = await impostor(warmDir);
    try {
      // The control: laid out as a server of ours would be, it is believed, which is what the cases below must break.
      const believed = await searchTraced(repo, args);
      assert.equal(believed.path, `warm ${process.pid}`);
      assert.match(believed.stdout, /IMPOSTOR/);

      /** In each state below, the CLI answers as it does alone there (which may be its refusal of the index folder). */
      const answersAlone = async (what: string) => {
        const [r, here] = [await searchTraced(repo, args), await searchHere(repo, args)];
        assert.deepEqual([r.code, r.stdout, r.stderr], [here.code, here.stdout, here.stderr], what);
        assert.match(r.path, /^cold /, what);
        assert.ok(!r.stdout.includes('IMPOSTOR'), what);
      };
      fs.chmodSync(warmDir, 0o755);
      await answersAlone('a warm folder open to others');
      fs.chmodSync(warmDir, 0o700);

      if (process.getuid?.() === 0) {
        for (const file of [`${process.pid}.json`, `${process.pid}.sock`, '']) {
          const target = path.join(warmDir, file);
          fs.lchownSync(target, 12345, 12345);
          // A warm folder of another owner makes the index folder itself refused, warm path or not (index-folder.ts).
          await answersAlone(`${file || 'the warm folder'} of another owner`).finally(() => fs.lchownSync(target, 0, 0));
        }
      }
      const asked = fake.asked();

      // The warm folder a link to a folder elsewhere (a tracked or planted .ocrag/warm): not followed.
      const elsewhere = path.join(tempDir('planted'), 'warm');
      fs.renameSync(warmDir, elsewhere);
      fs.symlinkSync(elsewhere, warmDir);
      await answersAlone('a warm folder behind a link');
      fs.rmSync(warmDir);
      fs.renameSync(elsewhere, warmDir);

      // The record a link to a record elsewhere.
      const recordFile = path.join(warmDir, `${process.pid}.json`);
      const outside = path.join(tempDir('record'), 'record.json');
      fs.renameSync(recordFile, outside);
      fs.symlinkSync(outside, recordFile);
      await answersAlone('a record behind a link');
      assert.equal(fake.asked(), asked, 'the impostor was asked again');
    } finally {
      await fake.close();
      fs.rmSync(warmDir, { recursive: true, force: true });
    }
  });

  it('answers itself over a stale socket and a record of a process gone', async () => {
    const warmDir = path.join(repo, WARM);
    fs.rmSync(warmDir, { recursive: true, force: true });
    fs.mkdirSync(warmDir, { mode: 0o700 });
    // A server killed with SIGKILL: its socket file stays, nobody listens, its pid is gone.
    const dead = await killedListener(warmDir);
    fs.writeFileSync(path.join(warmDir, `${dead}.json`), JSON.stringify({ ...record, pid: dead }));
    const gone = await searchTraced(repo, args);
    assert.equal(gone.stdout, expected);
    assert.equal(gone.path, 'cold no server');
    // The same socket under a pid that runs (ours) but does not listen there: refused, then answered here.
    fs.renameSync(path.join(warmDir, `${dead}.sock`), path.join(warmDir, `${process.pid}.sock`));
    fs.writeFileSync(path.join(warmDir, `${process.pid}.json`), JSON.stringify({ ...record, pid: process.pid }));
    const stale = await searchTraced(repo, args);
    assert.equal(stale.stdout, expected);
    assert.equal(stale.path, 'cold no answer');
    fs.rmSync(warmDir, { recursive: true, force: true });
  });
});

describe('ocrag search through a running ocrag watch', () => {
  it('is answered by the watch, the same as alone', async () => {
    const repo = makeFixtureRepo();
    await runJson(['index'], repo);
    const watch = startWatch(repo);
    try {
      await serverRecord(repo);
      const args = ['--json', '-k', '4', 'parse command line arguments'];
      const warm = await searchTraced(repo, args);
      assert.match(warm.path, /^warm \d+$/);
      assert.equal(warm.stdout, (await searchHere(repo, args)).stdout);
    } finally {
      await stop(watch);
    }
    assert.deepEqual(fs.readdirSync(path.join(repo, WARM)), [], 'the watch left its socket or record behind');
  });
});

function startWatch(repo: string): ChildProcess {
  return spawn(process.execPath, [CLI, 'watch'], { cwd: repo, env: { ...process.env, OCRAG_CACHE: TEST_CACHE, ...GIT_IDENTITY }, stdio: 'ignore' });
}

function question(record: { version: string; root: string }) {
  const environment = Object.keys(process.env).filter((n) => n.startsWith('OCRAG_') && !['OCRAG_WARM', 'OCRAG_DEBUG', 'OCRAG_TEST_SEAMS'].includes(n)).sort().map((n) => `${n}=${process.env[n]}`).join('\n');
  return { root: record.root, version: record.version, environment, seams: '{}', flags: {}, query: 'parse', options: {} };
}

function ask(socket: string, request: object): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let received = '';
    const conn = net.createConnection(socket, () => conn.write(`${JSON.stringify(request)}\n`));
    conn.setEncoding('utf8');
    conn.on('data', (d: string) => (received += d));
    conn.on('end', () => resolve(JSON.parse(received) as Record<string, unknown>));
    conn.on('error', reject);
  });
}

/** The pid of a process that listened on `<folder>/<pid>.sock` and was killed, leaving the socket file. */
async function killedListener(folder: string): Promise<number> {
  const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(require('path').join(${JSON.stringify(folder)}, process.pid + '.sock'), () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  await stop(child, 'SIGKILL');
  return child.pid!;
}

function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
