// `ocrag ui`'s security model, checked with raw HTTP against the real server: loopback only, a token on every
// request, Host and Origin checked (DNS rebinding, other sites), no CORS, POST-only actions, JSON bodies only.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import http from 'node:http';
import os from 'node:os';
import { after, before, describe, test } from 'node:test';
import path from 'node:path';
import { committedRepo, runCli, tempDir, twoLanguageRepo } from '../helpers.js';
import { seamEnv } from '../support/seams.js';
import { raw, startUi, type RunningUi } from './ui-helpers.js';

describe('ocrag ui over raw HTTP', () => {
  let ui: RunningUi;
  let repo: string;
  let own: Record<string, string>;
  /** This machine's list of indexed roots, this file's own (the panel serves no other). */
  const env = seamEnv({ knownRootsDir: path.join(tempDir('ui-http-roots'), 'roots') }) as Record<string, string>;

  before(async () => {
    repo = twoLanguageRepo();
    ui = await startUi(repo, [], env);
    own = { host: `127.0.0.1:${ui.port}`, 'x-ocrag-token': ui.token };
  });
  after(async () => ui?.stop());

  test('prints {url, port, token} and listens on 127.0.0.1 only', async () => {
    assert.equal(ui.url, `http://127.0.0.1:${ui.port}/?token=${ui.token}`);
    assert.ok(ui.token.length >= 32, 'the token is long enough not to be guessed');
    const r = await raw(ui.port, 'GET', '/api/task', own);
    assert.equal(r.status, 200);
    assert.equal(JSON.parse(r.body).state, 'idle');
    // Any address of this machine other than loopback is refused at connect, if the machine has one.
    const outside = Object.values(os.networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
    if (outside) {
      const refused = await new Promise<boolean>((resolve) => {
        const socket = net.connect(ui.port, outside.address);
        socket.once('connect', () => (socket.destroy(), resolve(false)));
        socket.once('error', () => resolve(true));
      });
      assert.ok(refused, `port ${ui.port} answers on ${outside.address}`);
    }
  });

  test('without the token 401, with a wrong one 403; the page takes it from the query string, the API only from the header', async () => {
    const host = { host: `127.0.0.1:${ui.port}` };
    assert.equal((await raw(ui.port, 'GET', '/api/state', host)).status, 401);
    assert.equal((await raw(ui.port, 'GET', '/', host)).status, 401);
    assert.equal((await raw(ui.port, 'GET', '/api/state', { ...host, 'x-ocrag-token': 'x'.repeat(ui.token.length) })).status, 403);
    assert.equal((await raw(ui.port, 'GET', `/?token=${ui.token}x`, host)).status, 403);
    assert.equal((await raw(ui.port, 'GET', `/api/state?token=${ui.token}`, host)).status, 401, 'an API call needs the header');
    const page = await raw(ui.port, 'GET', `/?token=${ui.token}`, host);
    assert.equal(page.status, 200);
    assert.match(page.headers['content-type'] ?? '', /^text\/html/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'; script-src 'nonce-[^']+'/);
    assert.equal(page.headers['referrer-policy'], 'no-referrer', 'the token in the address never leaks as a referrer');
    assert.ok(!page.body.includes(ui.token), 'the page itself does not carry the token');
  });

  test('/favicon.ico is answered 204 without the token, never 401; Host and Origin are still checked, and no other path is open', async () => {
    const host = { host: `127.0.0.1:${ui.port}` };
    const icon = await raw(ui.port, 'GET', '/favicon.ico', host);
    assert.equal(icon.status, 204);
    assert.equal(icon.body, '');
    assert.equal(icon.headers['cache-control'], 'no-store');
    assert.equal((await raw(ui.port, 'HEAD', '/favicon.ico', host)).status, 204);
    assert.equal((await raw(ui.port, 'GET', '/favicon.ico', { host: `evil.example:${ui.port}` })).status, 421);
    assert.equal((await raw(ui.port, 'GET', '/favicon.ico', { ...host, origin: 'http://evil.example' })).status, 403);
    assert.equal((await raw(ui.port, 'POST', '/favicon.ico', { ...host, 'content-type': 'application/json' }, '{}')).status, 401, 'only a GET is public');
    for (const p of ['/favicon.ico/', '/favicon.ico/../api/state', '/api/state?x=/favicon.ico', '/FAVICON.ICO']) {
      assert.equal((await raw(ui.port, 'GET', p, host)).status, 401, p);
    }
  });

  test('a foreign Host is 421 (DNS rebinding), a foreign Origin 403, even with the token; never a CORS header', async () => {
    for (const host of ['evil.example:' + ui.port, `127.0.0.1:${ui.port + 1}`, '127.0.0.1', `0.0.0.0:${ui.port}`]) {
      const r = await raw(ui.port, 'GET', '/api/state', { ...own, host });
      assert.equal(r.status, 421, host);
    }
    assert.equal((await raw(ui.port, 'GET', '/api/task', { ...own, host: `localhost:${ui.port}` })).status, 200);
    for (const origin of ['http://evil.example', `http://127.0.0.1:${ui.port + 1}`, `https://127.0.0.1:${ui.port}`, 'null']) {
      const r = await raw(ui.port, 'POST', '/api/cancel', { ...own, origin, 'content-type': 'application/json' }, '{}');
      assert.equal(r.status, 403, origin);
    }
    const same = await raw(ui.port, 'POST', '/api/cancel', { ...own, origin: `http://127.0.0.1:${ui.port}`, 'content-type': 'application/json' }, '{}');
    assert.equal(same.status, 200);
    assert.deepEqual(JSON.parse(same.body).cancelled, false);
    const preflight = await raw(ui.port, 'OPTIONS', '/api/index', { ...own, origin: `http://127.0.0.1:${ui.port}`, 'access-control-request-method': 'POST' });
    for (const r of [same, preflight]) assert.ok(!Object.keys(r.headers).some((h) => h.startsWith('access-control-')), 'no CORS header');
  });

  test('actions are POST only (GET 405 with Allow), take JSON bodies only (415), and refuse bad ones (400)', async () => {
    for (const route of ['/api/index', '/api/rebuild', '/api/cancel']) {
      const r = await raw(ui.port, 'GET', route, own);
      assert.equal(r.status, 405, route);
      assert.equal(r.headers.allow, 'POST');
    }
    assert.equal((await raw(ui.port, 'POST', '/api/cancel', { ...own, 'content-type': 'text/plain' }, '{}')).status, 415);
    assert.equal((await raw(ui.port, 'POST', '/api/cancel', { ...own, 'content-type': 'application/x-www-form-urlencoded' }, 'a=1')).status, 415);
    assert.equal((await raw(ui.port, 'POST', '/api/cancel', own, '{}')).status, 415, 'no content type');
    const bad = await raw(ui.port, 'POST', '/api/cancel', { ...own, 'content-type': 'application/json' }, '{nope');
    assert.equal(bad.status, 400);
    assert.match(JSON.parse(bad.body).error, /not valid JSON/);
    const big = await raw(ui.port, 'POST', '/api/cancel', { ...own, 'content-type': 'application/json' }, JSON.stringify({ id: 'x'.repeat(70_000) }));
    assert.equal(big.status, 413);
    assert.equal((await raw(ui.port, 'POST', '/api/cancel', { ...own, 'content-type': 'application/json' }, '{"id": 7}')).status, 400);
    assert.equal((await raw(ui.port, 'POST', '/api/state', { ...own, 'content-type': 'application/json' }, '{}')).status, 405);
    assert.equal((await raw(ui.port, 'GET', '/api/nothing', own)).status, 404);
    const k = await raw(ui.port, 'GET', '/api/search?q=route&k=0', own);
    assert.equal(k.status, 400);
    assert.match(JSON.parse(k.body).error, /^k must be a whole number from 1 to 50/);
  });

  test('the task feed is server-sent events, behind the same token, starting with the task as it is', async () => {
    assert.equal((await raw(ui.port, 'GET', '/api/events', { host: own.host })).status, 401);
    const first = await new Promise<{ type: string; event: string }>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: ui.port, path: '/api/events', headers: own }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
          if (!text.includes('\n\n')) return;
          resolve({ type: String(res.headers['content-type']), event: text.slice(0, text.indexOf('\n\n')) });
          req.destroy();
        });
      });
      req.on('error', reject);
    });
    assert.match(first.type, /^text\/event-stream/);
    assert.match(first.event, /^data: /);
    assert.equal(JSON.parse(first.event.slice(6)).state, 'idle');
  });

  test('bad flags are one-line errors with exit 2', async () => {
    for (const port of ['abc', '70000', '-1']) {
      const r = await runCli(['ui', '--port', port, '--no-open'], repo);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  });

  test('a port in use is a one-line error naming --port', async () => {
    const r = await runCli(['ui', '--port', String(ui.port), '--no-open'], repo);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, new RegExp(`port ${ui.port} is in use`));
  });

  test('the roots are the panel\'s own and those indexed here; a call naming any other path is 400 and opens nothing', async () => {
    const folder = path.join(tempDir('ui-http-kb'), 'kb');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nThe backup runs nightly.\n');
    const indexed = await runCli(['index'], folder, env);
    assert.equal(indexed.code, 0, indexed.stderr);
    const kb = fs.realpathSync(folder);
    const get = async (pathAndQuery: string) => {
      const r = await raw(ui.port, 'GET', pathAndQuery, own);
      return { status: r.status, body: JSON.parse(r.body) };
    };
    assert.equal((await raw(ui.port, 'GET', '/api/roots', { host: own.host })).status, 401, 'the list is behind the token');
    const listed = await get('/api/roots');
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.roots.map((r: { root: string; kind: string | null; home: boolean }) => [r.root, r.kind, r.home]), [[fs.realpathSync(repo), null, true], [kb, 'folder', false]]);
    const state = await get(`/api/state?root=${encodeURIComponent(kb)}`);
    assert.equal(state.status, 200, JSON.stringify(state.body));
    assert.deepEqual([state.body.root, state.body.plainFolder, state.body.files], [kb, true, 1]);
    // Paths that exist and would be servable (a git repository never indexed, a parent, the same folder spelt another way) are refused all the same.
    const unindexed = committedRepo(path.join(tempDir('ui-http-other'), 'other'), { 'a.ts': 'export const a = 1;\n' }, 'other');
    for (const root of ['/', '/etc', unindexed, path.dirname(kb), `${kb}/`, `${kb}/../kb`, 'kb', 'x'.repeat(5000)]) {
      for (const [method, where] of [['GET', '/api/state'], ['GET', '/api/events'], ['GET', '/api/search?q=backup&'], ['POST', '/api/index']] as const) {
        const sep = where.endsWith('&') ? '' : '?';
        const r = await raw(ui.port, method, `${where}${sep}root=${encodeURIComponent(root)}`, method === 'POST' ? { ...own, 'content-type': 'application/json' } : own, method === 'POST' ? '{}' : undefined);
        assert.equal(r.status, 400, `${method} ${where} root=${root.slice(0, 40)}: ${r.status} ${r.body}`);
        assert.match(JSON.parse(r.body).error, /is not a root this panel lists: it serves only the repositories and folders indexed on this machine/);
      }
    }
    assert.ok(!fs.existsSync(path.join(unindexed, '.ocrag')), 'nothing was made in the repository named');
    // A listed root whose index is gone drops out of the list and is refused.
    fs.rmSync(path.join(kb, '.ocrag'), { recursive: true });
    assert.deepEqual((await get('/api/roots')).body.roots.map((r: { root: string }) => r.root), [fs.realpathSync(repo)]);
    assert.equal((await get(`/api/state?root=${encodeURIComponent(kb)}`)).status, 400);
  });

  // Last: the first search indexes the repository, and the tests above see it never indexed.
  test('a search takes k, path, language and source; an unknown source or an overlong filter is 400', async () => {
    const search = async (q: string) => {
      const r = await raw(ui.port, 'GET', `/api/search?${q}`, own);
      return { status: r.status, body: JSON.parse(r.body) };
    };
    const python = await search('q=database+backup&language=python&k=3');
    assert.equal(python.status, 200, JSON.stringify(python.body));
    assert.deepEqual(python.body.filters, { path: null, language: 'python', source: null });
    assert.ok(python.body.results.length > 0 && python.body.results.length <= 3);
    assert.ok(python.body.results.every((r: { language: string }) => r.language === 'python'));
    const tools = await search('q=render&path=tools/**');
    assert.ok(tools.body.results.length > 0 && tools.body.results.every((r: { path: string }) => r.path.startsWith('tools/')), JSON.stringify(tools.body.results));
    const first = tools.body.results[0] as { path: string; startLine: number; editorUrl: string };
    assert.equal(first.editorUrl, `vscode://file${fs.realpathSync(repo).split('/').map(encodeURIComponent).join('/')}/${first.path}:${first.startLine}`);
    const unknown = await search('q=render&source=nope');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, 'no source named "nope": none was added (ocrag add PATH adds one)');
    assert.equal((await search(`q=render&path=${'a'.repeat(501)}`)).status, 400);
  });

  test('a search answers by the relevance rule of every surface: an off-topic question gets "no good match", all=1 the closest chunks', async () => {
    const off = await raw(ui.port, 'GET', `/api/search?q=${encodeURIComponent('how to knit a wool sweater for winter')}`, own);
    const body = JSON.parse(off.body) as { results: unknown[]; noMatch?: string };
    assert.equal(off.status, 200, off.body);
    assert.deepEqual(body.results, []);
    assert.match(body.noMatch ?? '', /^no good match for "how to knit a wool sweater for winter": nothing in this repository .*"show the closest anyway"/);
    // Narrowed by a filter, it judged only the filter's files, and says so.
    const narrowed = JSON.parse((await raw(ui.port, 'GET', `/api/search?q=${encodeURIComponent('how to knit a wool sweater for winter')}&path=${encodeURIComponent('src/**')}`, own)).body) as { results: unknown[]; noMatch?: string };
    assert.match(narrowed.noMatch ?? '', /: nothing in the files the filter keeps /);
    // Under a language filter (kept after ranking), none of that language among the best: said as every surface says it.
    const python = JSON.parse((await raw(ui.port, 'GET', `/api/search?q=${encodeURIComponent('how to knit a wool sweater for winter')}&language=python`, own)).body) as { results: unknown[]; noMatch?: string };
    assert.equal(python.noMatch, 'no python results among the best matches that match well enough; try without the language filter or with a path filter');
    const all = JSON.parse((await raw(ui.port, 'GET', `/api/search?q=${encodeURIComponent('how to knit a wool sweater for winter')}&all=1&k=2`, own)).body) as { results: unknown[]; noMatch?: string };
    assert.equal(all.results.length, 2);
    assert.equal(all.noMatch, undefined);
    const real = JSON.parse((await raw(ui.port, 'GET', '/api/search?q=database+backup', own)).body) as { results: unknown[]; noMatch?: string };
    assert.ok(real.results.length > 0);
    assert.equal(real.noMatch, undefined);
  });
});
