// The TLS door (src/util/fetch-remote.ts → https-request.ts) answers as Node's own fetch does when Node read
// NODE_EXTRA_CA_CERTS at start-up: the same requests, to a real https server whose certificate a CA made with the
// openssl CLI signed, asked through the door with the CA deferred and through Node's fetch in a process started with
// the variable, give the same statuses, headers and bodies: redirects (followed, handed back, a 303 turned into a GET,
// credentials dropped at another origin), a gzip or brotli body, HEAD, 204, a body sent.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { trustedFetch } from '../../src/util/fetch-remote.js';
import { makeCertificates, tempDir } from '../helpers.js';

interface Ask {
  path: string;
  init: { method?: string; headers?: Record<string, string>; body?: string; redirect?: RequestRedirect };
  /** The other server (another port: another origin). */
  other?: boolean;
}

/** What an answer is, as both sides see it (its source runs in the other process too): no header that differs between two runs anyway. */
const summary = async (res: Response) => ({ status: res.status, headers: [...res.headers].filter(([n]) => !['date', 'keep-alive', 'connection'].includes(n)), body: res.body ? await res.text() : null });

describe('the TLS door answers as Node fetch with NODE_EXTRA_CA_CERTS', () => {
  let ca: string;
  let servers: https.Server[];
  let bases: string[];

  before(async () => {
    const made = makeCertificates(tempDir('door-pki'));
    ca = made.ca;
    const served = { key: fs.readFileSync(made.key), cert: fs.readFileSync(made.cert) };
    servers = [0, 1].map(() =>
      https.createServer(served, (req, res) => {
        const elsewhere = `https://127.0.0.1:${(servers[1].address() as AddressInfo).port}/echo`;
        if (req.url === '/moved') return res.writeHead(302, { location: '/echo' }).end();
        if (req.url === '/see-other') return res.writeHead(303, { location: '/echo' }).end();
        if (req.url === '/away') return res.writeHead(307, { location: elsewhere }).end();
        if (req.url === '/gzip') return res.writeHead(200, { 'content-encoding': 'gzip', 'x-kind': 'gzip' }).end(zlib.gzipSync('packed text'));
        if (req.url === '/brotli') return res.writeHead(200, { 'content-encoding': 'br' }).end(zlib.brotliCompressSync('packed by brotli'));
        if (req.url === '/broken') {
          res.writeHead(200, { 'content-length': '100' }).write('partial');
          return setTimeout(() => res.socket?.destroy(), 50);
        }
        if (req.url === '/empty') return res.writeHead(204, { 'x-kind': 'none' }).end();
        let sent = 0;
        req.on('data', (b: Buffer) => (sent += b.length));
        req.on('end', () => {
          const seen = ['accept', 'accept-encoding', 'accept-language', 'user-agent', 'authorization', 'content-type', 'x-asked'].map((h) => `${h}=${req.headers[h] ?? ''}`);
          res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] }).end(`${req.method} ${req.url} ${sent} ${seen.join(' ')}`);
        });
      }),
    );
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
    bases = [`https://127.0.0.1:${(servers[0].address() as AddressInfo).port}`, `https://127.0.0.1:${(servers[1].address() as AddressInfo).port}`];
  });
  after(() => servers.forEach((s) => s.close()));

  const asks: Ask[] = [
    { path: '/echo', init: {} },
    { path: '/echo', init: { method: 'PUT', body: 'twelve bytes', headers: { authorization: 'Bearer t', 'x-asked': 'yes', 'content-type': 'application/octet-stream' } } },
    { path: '/moved', init: { headers: { authorization: 'Bearer t' } } },
    { path: '/moved', init: { redirect: 'manual' } },
    { path: '/see-other', init: { method: 'POST', body: 'form', headers: { 'content-type': 'text/plain' } } },
    { path: '/away', init: { headers: { authorization: 'Bearer t', 'x-asked': 'kept' } } },
    { path: '/gzip', init: {} },
    { path: '/gzip', init: { headers: { 'accept-encoding': 'identity' } } },
    { path: '/brotli', init: {} },
    { path: '/echo', init: { method: 'HEAD' } },
    { path: '/empty', init: {} },
    { path: '/echo', init: {}, other: true },
  ];

  test('the same answers as Node fetch in a process that read the variable at start-up', async () => {
    const urls = asks.map((a) => `${bases[a.other ? 1 : 0]}${a.path}`);
    const script = `const asks = ${JSON.stringify(asks.map((a, i) => ({ url: urls[i], init: a.init })))}; const summary = ${summary.toString()}; (async () => { const out = []; for (const a of asks) out.push(await summary(await fetch(a.url, a.init))); process.stdout.write(JSON.stringify(out)); })();`;
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_EXTRA_CA_CERTS: ca };
    delete env.OCRAG_NODE_EXTRA_CA_CERTS;
    const node = JSON.parse((await promisify(execFile)(process.execPath, ['-e', script], { env, encoding: 'utf8' })).stdout) as unknown[];
    const door: unknown[] = [];
    for (const [i, a] of asks.entries()) door.push(await summary(await trustedFetch(new URL(urls[i]), a.init, ca)));
    assert.deepEqual(door, node);
  });

  test('a plain http URL that redirects to https trusts the file there too', async () => {
    const plain = http.createServer((_req, res) => res.writeHead(302, { location: `${bases[0]}/echo` }).end());
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const res = await trustedFetch(new URL(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/up`), {}, ca);
      assert.equal(res.status, 200);
      assert.match(await res.text(), /^GET \/echo /);
    } finally {
      plain.close();
    }
  });

  test('a connection that breaks off in the body fails the read, not the process', async () => {
    const res = await trustedFetch(new URL(`${bases[0]}/broken`), {}, ca);
    assert.equal(res.status, 200);
    await assert.rejects(res.text());
  });

  test('a certificate the file does not vouch for fails as fetch fails: TypeError "fetch failed", the code as cause', async () => {
    const other = path.join(tempDir('door-other'), 'other.pem');
    fs.writeFileSync(other, `${tls.rootCertificates[0]}\n`);
    await assert.rejects(trustedFetch(new URL(`${bases[0]}/echo`), {}, other), (e: Error & { cause?: { code?: string } }) => e instanceof TypeError && e.message === 'fetch failed' && e.cause?.code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    const aborted = AbortSignal.abort();
    await assert.rejects(trustedFetch(new URL(`${bases[0]}/echo`), { signal: aborted }, ca), (e: Error) => e.name === 'AbortError');
  });
});
