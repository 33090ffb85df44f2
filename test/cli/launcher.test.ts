// The installed command (package.json `bin`, dist/cli/ocrag.cjs) starts as a POSIX sh script (scripts/launcher-head.sh)
// that keeps NODE_EXTRA_CA_CERTS from Node's start-up: ocrag's https requests trust its certificates through the one
// door (src/util/fetch-remote.ts), and programs ocrag starts get the variable back. Real parts: a CA and a server
// certificate made with the openssl CLI, an https server on 127.0.0.1, a real artifact of `ocrag export`, the
// command started through a symlink in another folder as npm's .bin links it, a git on PATH that says what it got.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cloneRepo, makeCertificates, makeFixtureRepo, PROJECT_ROOT, runCommand, runJson, tempDir } from '../helpers.js';

const BIN = path.join(PROJECT_ROOT, (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.ocrag);
/** The node that runs the tests first on PATH, where the launcher's `exec node` finds it. */
const PATH_WITH_NODE = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;

/** A link to `target` in a folder of its own, relative as npm's node_modules/.bin links are. */
function linkedFrom(target: string, name: string): string {
  const bin = path.join(tempDir('bin'), 'node_modules', '.bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.symlinkSync(path.relative(bin, target), path.join(bin, name));
  return path.join(bin, name);
}

/** Runs a program as a shell would (exec'd by path), and says how it ended: exit code or signal. */
function ended(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; signal: string | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout }));
  });
}

describe('the installed command: a sh launcher that defers NODE_EXTRA_CA_CERTS', () => {
  let certs: { ca: string; key: string; cert: string };
  let server: https.Server;
  let base: string;
  let origin: string;
  let chunks: number;
  let command: string;

  before(async () => {
    certs = makeCertificates(tempDir('pki'));
    origin = makeFixtureRepo();
    const file = path.join(tempDir('launch-artifact'), 'index.tar');
    chunks = (await runJson<{ counts: { chunks: number } }>(['export', '--out', file], cloneRepo(origin, 'launch-a'))).counts.chunks;
    const artifact = fs.readFileSync(file);
    server = https.createServer({ key: fs.readFileSync(certs.key), cert: fs.readFileSync(certs.cert) }, (req, res) => {
      if (req.url === '/moved.tar') res.writeHead(302, { location: '/index.tar' }).end();
      else if (req.url === '/index.tar') res.writeHead(200).end(artifact);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    command = linkedFrom(BIN, 'ocrag');
  });
  after(() => server.close());

  const run = (args: string[], cwd: string, env: NodeJS.ProcessEnv) => runCommand(command, args, cwd, { PATH: PATH_WITH_NODE, ...env });

  test('an https import trusts the certificates NODE_EXTRA_CA_CERTS names, as Node would, redirects included', async () => {
    for (const name of ['index.tar', 'moved.tar']) {
      const r = await run(['import', '--json', `${base}/${name}`], cloneRepo(origin, 'launch-b'), { NODE_EXTRA_CA_CERTS: certs.ca });
      assert.equal(r.code, 0, r.stderr);
      assert.equal((JSON.parse(r.stdout) as { chunksAdded: number }).chunksAdded, chunks);
    }
  });

  test('without them the import fails as a remote does: exit 6, one line naming the certificate error', async () => {
    const r = await run(['import', `${base}/index.tar`], cloneRepo(origin, 'launch-c'), { NODE_EXTRA_CA_CERTS: '' });
    assert.equal(r.code, 6, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /unreachable \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/);
  });

  test('a file that cannot be read is warned of once, in Node words, and only Node own roots are trusted', async () => {
    const missing = path.join(tempDir('no-ca'), 'missing.pem');
    const r = await run(['import', `${base}/moved.tar`], cloneRepo(origin, 'launch-d'), { NODE_EXTRA_CA_CERTS: missing });
    assert.equal(r.code, 6, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 2, r.stderr);
    assert.ok(lines[0].startsWith(`Warning: Ignoring extra certs from \`${missing}\`, load failed: `), r.stderr);
    assert.match(lines[1], /UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
  });

  test('git, which ocrag starts, gets NODE_EXTRA_CA_CERTS back and nothing of the deferral', async () => {
    const shim = tempDir('git-shim');
    const log = path.join(shim, 'env.log');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    fs.writeFileSync(path.join(shim, 'git'), `#!/bin/sh\nprintf '%s|%s\\n' "\${NODE_EXTRA_CA_CERTS-unset}" "\${OCRAG_NODE_EXTRA_CA_CERTS-unset}" >> '${log}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
    const r = await run(['status', '--json'], cloneRepo(origin, 'launch-e'), { NODE_EXTRA_CA_CERTS: certs.ca, PATH: `${shim}${path.delimiter}${PATH_WITH_NODE}` });
    assert.equal(r.code, 0, r.stderr);
    const seen = [...new Set(fs.readFileSync(log, 'utf8').trim().split('\n'))];
    assert.deepEqual(seen, [`${certs.ca}|unset`]);
  });

  describe('its lines as sh, before a program that says what it got', () => {
    let probe: string;
    before(() => {
      // The launcher's lines exactly as built, then the program: the file a link leads to, as ocrag.cjs is.
      const built = fs.readFileSync(BIN, 'utf8');
      const head = built.slice(0, built.indexOf('\nconst __ocragUrl') + 1);
      assert.ok(head.startsWith('#!/bin/sh\n') && head.includes('exec node'), 'dist/cli/ocrag.cjs starts with the launcher');
      const real = path.join(tempDir('probe'), 'probe.cjs');
      fs.writeFileSync(
        real,
        head +
          'const code = Number(process.argv[2]);\n' +
          'if (process.argv[2] === "signal") process.kill(process.pid, "SIGTERM");\n' +
          'console.log(JSON.stringify({ args: process.argv.slice(2), file: __filename, execArgv: process.execArgv, node: process.env.NODE_EXTRA_CA_CERTS ?? null, deferred: process.env.OCRAG_NODE_EXTRA_CA_CERTS ?? null }));\n' +
          'process.exitCode = Number.isInteger(code) ? code : 0;\n',
        { mode: 0o755 },
      );
      probe = linkedFrom(real, 'probe');
    });
    const said = (stdout: string) => JSON.parse(stdout) as { args: string[]; file: string; execArgv: string[]; node: string | null; deferred: string | null };

    test('passes every argument unchanged: spaces, quotes, Chinese, a leading -, an empty one', async () => {
      const args = ['7', 'two words', `it's "quoted"`, '搜索 代码', '-x', '--', '', '$HOME', '*', 'a\nb'];
      const r = await ended(probe, args, { ...process.env, PATH: PATH_WITH_NODE, NODE_EXTRA_CA_CERTS: certs.ca });
      assert.equal(r.code, 7);
      const got = said(r.stdout);
      assert.deepEqual(got.args, args);
      assert.deepEqual(got.execArgv, []);
      assert.equal(got.file, fs.realpathSync(path.join(probe, '..', fs.readlinkSync(probe))), 'node ran the file the link leads to');
      assert.deepEqual([got.node, got.deferred], [null, certs.ca]);
    });

    test('leaves an unset or empty variable alone, and a signal ends the command as it ends node', async () => {
      const unset: NodeJS.ProcessEnv = { ...process.env, PATH: PATH_WITH_NODE };
      delete unset.NODE_EXTRA_CA_CERTS;
      delete unset.OCRAG_NODE_EXTRA_CA_CERTS;
      const r = await ended(probe, ['0'], unset);
      assert.deepEqual([said(r.stdout).node, said(r.stdout).deferred], [null, null]);
      // One inherited without NODE_EXTRA_CA_CERTS is not the user's (README): Node would trust no such file.
      const stale = await ended(probe, ['0'], { ...unset, NODE_EXTRA_CA_CERTS: '', OCRAG_NODE_EXTRA_CA_CERTS: certs.ca });
      assert.deepEqual([said(stale.stdout).node, said(stale.stdout).deferred], ['', null]);
      const killed = await ended(probe, ['signal'], unset);
      assert.deepEqual([killed.code, killed.signal], [null, 'SIGTERM']);
    });
  });
});
