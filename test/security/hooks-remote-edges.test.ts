import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI, committedRepo, GIT_IDENTITY, runCli, TEST_CACHE, tempDir } from '../helpers.js';

/*
 * Remotes that trickle, hang or never end, against real servers on 127.0.0.1: every call has a deadline, ends
 * with one line and a documented exit code, and a URL import leaves no temporary file however it ends. The
 * deadlines are set small here (OCRAG_REMOTE_TIMEOUT_MS, OCRAG_REMOTE_DEADLINE_MS) so the suite stays quick.
 */

interface Server {
  url: string;
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  stop(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 whose every answer `handle` writes. */
async function httpServer(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Server> {
  const server = http.createServer(handle);
  let accepted = 0;
  server.on('connection', () => accepted++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, connections: () => accepted, stop: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

/** A TCP server that accepts and never says a word: a remote that hangs. */
async function silentServer(): Promise<Server> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, connections: () => accepted, stop: () => new Promise((resolve) => (sockets.forEach((s) => s.destroy()), server.close(() => resolve()))) };
}

/** Sends `bytes` every `everyMs` until the client goes: a trickle, or with big pieces a body that never ends. */
function trickle(bytes: number, everyMs: number, status = 200) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/octet-stream' });
    const piece = Buffer.alloc(bytes, 0x41);
    const timer = setInterval(() => res.write(piece), everyMs);
    res.on('close', () => clearInterval(timer));
  };
}

const S3_ENV = { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1', AWS_ALLOW_HTTP: 'true' };

describe('a URL import has deadlines and leaves no temporary file', () => {
  let repo: string;
  let tmp: string;
  const servers: Server[] = [];
  before(() => {
    repo = committedRepo(path.join(tempDir('hooks-url'), 'repo'), { 'a.py': 'def a():\n    return 1\n' }, 'one');
  });
  after(async () => {
    for (const s of servers) await s.stop();
  });
  const serve = async (handle: Parameters<typeof httpServer>[0]) => {
    const s = await httpServer(handle);
    servers.push(s);
    return s;
  };
  /** The import's own temp folder (TMPDIR), empty before each run. */
  const importEnv = (extra: Record<string, string> = {}) => {
    tmp = tempDir('hooks-url-tmp');
    return { TMPDIR: tmp, OCRAG_REMOTE_TIMEOUT_MS: '1000', ...extra };
  };

  test('a server that trickles bytes: exit 6 with one line, the temp file gone', async () => {
    const s = await serve(trickle(1, 50));
    const r = await runCli(['import', `${s.url}/index.tar`], repo, importEnv());
    assert.equal(r.code, 6);
    assert.equal(r.stderr, `ocrag: ${s.url}/index.tar: stalled: less than 16 KiB in 1 s\n`);
    assert.deepEqual(fs.readdirSync(tmp), []);
  });

  test('a body that never ends, fast enough never to stall: cut at the overall deadline, exit 6, the temp file gone', async () => {
    const s = await serve(trickle(64 * 1024, 20));
    const r = await runCli(['import', `${s.url}/endless.tar?X-Amz-Signature=secret`], repo, importEnv({ OCRAG_REMOTE_DEADLINE_MS: '1500' }));
    assert.equal(r.code, 6);
    assert.equal(r.stderr, `ocrag: ${s.url}/endless.tar: not done within 1.5 s\n`, 'one line, no signature');
    assert.deepEqual(fs.readdirSync(tmp), []);
  });

  test('a server that accepts and never answers: exit 6 after the answer timeout', async () => {
    const s = await silentServer();
    servers.push(s);
    const r = await runCli(['import', `${s.url}/index.tar`], repo, importEnv());
    assert.equal(r.code, 6);
    assert.equal(r.stderr, `ocrag: ${s.url}/index.tar: unreachable (no answer within 1 s)\n`);
    assert.deepEqual(fs.readdirSync(tmp), []);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} during a URL import: the process ends by the signal and its temp file is gone`, async () => {
      const s = await serve(trickle(1, 50));
      const env = importEnv({ OCRAG_REMOTE_TIMEOUT_MS: '60000' });
      const child = spawn(process.execPath, [CLI, 'import', `${s.url}/index.tar`], { cwd: repo, env: { ...process.env, OCRAG_CACHE: TEST_CACHE, ...GIT_IDENTITY, ...env }, stdio: 'ignore' });
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, sig) => resolve({ code, signal: sig })));
      for (const deadline = Date.now() + 30_000; fs.readdirSync(tmp).length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      assert.match(fs.readdirSync(tmp)[0] ?? '', /^ocrag-import-\d+-[0-9a-f]{8}\.tar$/, 'the download had begun');
      child.kill(signal);
      assert.deepEqual(await ended, { code: null, signal });
      assert.deepEqual(fs.readdirSync(tmp), []);
    });
  }

  test('an artifact URL that redirects to plain http on another host is refused before it is asked', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(302, { location: 'http://10.255.255.1/index.tar' });
      res.end();
    });
    const r = await runCli(['import', `${s.url}/index.tar`], repo, importEnv());
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'ocrag: http://10.255.255.1/index.tar: plain http is accepted only from this machine (127.0.0.1, localhost); use https\n');
    assert.deepEqual(fs.readdirSync(tmp), []);
  });

  test('an s3:// artifact from an endpoint that trickles: exit 6, the temp file gone', async () => {
    const s = await serve(trickle(1, 50));
    const r = await runCli(['import', 's3://team/builds/index.tar'], repo, importEnv({ ...S3_ENV, AWS_ENDPOINT_URL: s.url }));
    assert.equal(r.code, 6);
    assert.equal(r.stderr, 'ocrag: s3://team/builds/index.tar: stalled: less than 16 KiB in 1 s\n');
    assert.deepEqual(fs.readdirSync(tmp), []);
  });

  test('an S3 error whose body never ends: its status in one line, the body read no further than 64 KiB', async () => {
    const s = await serve(trickle(64 * 1024, 5, 403));
    const r = await runCli(['import', 's3://team/builds/index.tar'], repo, importEnv({ ...S3_ENV, AWS_ENDPOINT_URL: s.url }));
    assert.equal(r.code, 6);
    assert.equal(r.stderr, 'ocrag: s3://team/builds/index.tar: GET answered HTTP 403\n');
  });

  test('a deadline that is not a number: exit 2, the setting named', async () => {
    const s = await serve(trickle(1, 50));
    const r = await runCli(['import', `${s.url}/index.tar`], repo, importEnv({ OCRAG_REMOTE_TIMEOUT_MS: 'soon' }));
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'ocrag: OCRAG_REMOTE_TIMEOUT_MS must be a whole number of milliseconds from 1 to 86400000, not "soon"\n');
  });
});

describe('a remote store that hangs', () => {
  test('a fresh clone\'s first search gives up on it at the answer timeout, once, and answers from a local index', async () => {
    const hang = await silentServer();
    try {
      const repo = committedRepo(path.join(tempDir('hooks-hang'), 'repo'), { 'src/auth.py': 'def check_password(given, stored):\n    """Compare a login attempt with the stored hash in constant time."""\n    return hmac.compare_digest(given, stored)\n', 'src/cache.py': 'def evict(cache):\n    """Drop the least recently used entry."""\n    cache.popitem(last=False)\n' }, 'two');
      const env = { ...S3_ENV, AWS_ENDPOINT_URL: hang.url, OCRAG_REMOTE: 's3://team/x', OCRAG_REMOTE_TIMEOUT_MS: '1000' };
      const r = await runCli(['search', 'how is the password verified', '-k', '1', '--json'], repo, env);
      assert.equal(r.code, 0, r.stderr);
      assert.equal((JSON.parse(r.stdout) as { path: string }[])[0].path, 'src/auth.py');
      // "… s ago": the index run did not wait on it again after the first answer's attempt gave up.
      assert.match(r.stderr, /^ocrag: remote store s3:\/\/team\/x not usable \(unreachable \(no answer within 1 s, [\d.]+ s ago\)\); indexing locally$/m);
    } finally {
      await hang.stop();
    }
  });
});

describe('a remote store that answers without end', () => {
  test('an identity.json that never ends is read no further than 1 MiB: one line, and the search answers from a local index', async () => {
    const remote = await httpServer(trickle(64 * 1024, 5));
    try {
      const repo = committedRepo(path.join(tempDir('hooks-endless'), 'repo'), { 'src/auth.py': 'def check_password(given, stored):\n    """Compare a login attempt with the stored hash in constant time."""\n    return hmac.compare_digest(given, stored)\n' }, 'one');
      const r = await runCli(['search', 'how is the password verified', '-k', '1', '--json'], repo, { ...S3_ENV, AWS_ENDPOINT_URL: remote.url, OCRAG_REMOTE: 's3://team/x' });
      assert.equal(r.code, 0, r.stderr);
      assert.equal((JSON.parse(r.stdout) as { path: string }[])[0].path, 'src/auth.py');
      assert.match(r.stderr, /^ocrag: remote store s3:\/\/team\/x not usable \(answered more than 1048576 bytes\); indexing locally$/m);
    } finally {
      await remote.stop();
    }
  });
});

describe('model pull', () => {
  test('offline: exit 5 with one line, the cache untouched', async () => {
    const closed = await silentServer();
    await closed.stop();
    const cache = tempDir('hooks-pull-cache');
    const r = await runCli(['model', 'pull', 'acme/tiny'], tempDir('hooks-pull'), { HF_ENDPOINT: closed.url, OCRAG_CACHE: cache });
    assert.equal(r.code, 5);
    assert.equal(r.stderr, `ocrag: could not reach the model hub (${closed.url}: ECONNREFUSED); copy a model folder and pass --model <folder>\n`);
    assert.deepEqual(fs.readdirSync(cache), []);
  });

  test('a hub that has no such model: exit 5; an id that is not owner/name: exit 2', async () => {
    const hub = await httpServer((_req, res) => res.writeHead(404).end());
    try {
      const r = await runCli(['model', 'pull', 'acme/missing'], tempDir('hooks-pull'), { HF_ENDPOINT: hub.url, OCRAG_CACHE: tempDir('hooks-pull-cache') });
      assert.deepEqual([r.code, r.stderr], [5, 'ocrag: model "acme/missing" not found on the hub (404)\n']);
      const bad = await runCli(['model', 'pull', '../etc'], tempDir('hooks-pull'));
      assert.deepEqual([bad.code, bad.stderr], [2, 'ocrag: "../etc" is not a hub model id (owner/name)\n']);
    } finally {
      await hub.stop();
    }
  });
});
