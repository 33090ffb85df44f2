import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import tls from 'node:tls';
import zlib from 'node:zlib';

/*
 * fetch over Node's https module, for an https request that must trust certificates besides Node's own: those of
 * NODE_EXTRA_CA_CERTS, which the installed command kept from Node at start-up (deferred-ca.ts). Node 20's fetch
 * takes no certificates of its own, so this answers as it does, for what ocrag asks of it: the method, headers and
 * a body of bytes; the signal; redirects followed, handed back (`manual`) or refused (`error`); the headers fetch
 * adds, and a body it decodes (gzip, deflate, br) by itself; a failure to connect as its TypeError `fetch failed`
 * with the cause (a certificate error's code, ECONNREFUSED, …); a real Response.
 */

/** What Node's fetch trusts with NODE_EXTRA_CA_CERTS set, once per process and file; null: the file was not read. */
interface Trust {
  /** Connections that trust them: the agent gives each the secure context, made once (~0.1 s on a loaded machine). */
  agent: https.Agent;
}
const trusts = new Map<string, Trust | null>();

/**
 * Node's roots and the file's certificates, as Node adds the file to its own at start-up. A file that cannot be
 * read is warned of once, in Node's own words, and the request trusts Node's roots alone, as Node then does.
 */
function trustOf(file: string): Trust | null {
  if (trusts.has(file)) return trusts.get(file) ?? null;
  let trust: Trust | null = null;
  try {
    const pem = fs.readFileSync(file, 'latin1');
    const secureContext = tls.createSecureContext({ ca: [...tls.rootCertificates, pem] });
    trust = { agent: new https.Agent({ keepAlive: true, secureContext }) };
  } catch (e) {
    process.stderr.write(`Warning: Ignoring extra certs from \`${file}\`, load failed: ${(e as Error).message}\n`);
  }
  trusts.set(file, trust);
  return trust;
}

/** fetch's limit on redirects followed (the Fetch standard's "HTTP-redirect fetch", step 5). */
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses whose answer has no body (a Response refuses one). */
const NULL_BODY = new Set([204, 205, 304]);
/** The headers Node 20's fetch adds to a request that lacks them; brotli it asks for only over TLS. */
const FETCH_HEADERS: Record<string, string> = { accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'node' };
const ENCODINGS = { 'https:': 'br, gzip, deflate', 'http:': 'gzip, deflate' };
/** Headers a redirect to another origin drops (fetch's own list), and those a redirect that becomes a GET drops. */
const CREDENTIALS = ['authorization', 'proxy-authorization', 'cookie'];
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

export async function fetchTrusting(url: URL, init: RequestInit, file: string): Promise<Response> {
  const trust = trustOf(file);
  if (!trust) return fetch(url, init);
  let method = (init.method ?? 'GET').toUpperCase();
  let body = bodyBytes(init.body);
  const headers = new Headers(init.headers);
  const mode = init.redirect ?? 'follow';
  for (let hop = 0; ; hop++) {
    const res = await send(url, method, headers, body, init.signal ?? null, trust);
    const status = res.statusCode ?? 0;
    const location = REDIRECTS.has(status) ? res.headers.location : undefined;
    if (location === undefined || mode === 'manual') return answer(res, method);
    res.resume();
    if (mode === 'error' || hop >= MAX_REDIRECTS) throw new TypeError('fetch failed', { cause: new Error(mode === 'error' ? 'unexpected redirect' : 'redirect count exceeded') });
    let next: URL;
    try {
      next = new URL(location, url);
    } catch (e) {
      throw new TypeError('fetch failed', { cause: e });
    }
    if (next.protocol !== 'https:' && next.protocol !== 'http:') throw new TypeError('fetch failed', { cause: new Error(`URL scheme must be a HTTP(S) scheme`) });
    if (((status === 301 || status === 302) && method === 'POST') || (status === 303 && method !== 'GET' && method !== 'HEAD')) {
      method = 'GET';
      body = undefined;
      for (const name of BODY_HEADERS) headers.delete(name);
    }
    if (next.origin !== url.origin) for (const name of CREDENTIALS) headers.delete(name);
    url = next;
  }
}

function bodyBytes(body: RequestInit['body']): Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return Buffer.from(body);
  throw new TypeError('fetch over deferred certificates takes a body of bytes or a string');
}

/** One request, answered by its status and headers; the signal cuts it before and after, as fetch's does. */
function send(url: URL, method: string, headers: Headers, body: Uint8Array | undefined, signal: AbortSignal | null, trust: Trust): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const sent: Record<string, string> = { ...Object.fromEntries(headers) };
    for (const [name, value] of Object.entries(FETCH_HEADERS)) if (!headers.has(name)) sent[name] = value;
    if (!headers.has('accept-encoding')) sent['accept-encoding'] = ENCODINGS[url.protocol as keyof typeof ENCODINGS];
    if (body && !headers.has('content-length')) sent['content-length'] = String(body.byteLength);
    const options = { method, headers: sent };
    const req = url.protocol === 'https:' ? https.request(url, { ...options, agent: trust.agent }) : http.request(url, options);
    const abort = () => req.destroy(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    const done = () => signal?.removeEventListener('abort', abort);
    req.once('response', (res) => {
      res.once('close', done);
      resolve(res);
    });
    // Not once: a connection that breaks after the answer came reports here too (its body, read by the caller, fails).
    req.on('error', (e) => {
      done();
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: e }));
    });
    req.end(body);
  });
}

/** The answer as fetch gives it: a Response with its headers, and its body decoded as fetch decodes it. */
function answer(res: http.IncomingMessage, method: string): Response {
  const status = res.statusCode ?? 0;
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
  const init = { status, statusText: res.statusMessage ?? '', headers };
  if (status < 200 || status > 599) {
    res.destroy();
    throw new TypeError('fetch failed', { cause: new Error(`invalid status ${status}`) });
  }
  if (method === 'HEAD' || NULL_BODY.has(status)) {
    res.on('error', () => undefined).resume();
    return new Response(null, init);
  }
  const decoders = decodersOf(res.headers['content-encoding']);
  const body = decoders.length === 0 ? res : (decoders.reduce<NodeJS.ReadableStream>((stream, d) => stream.pipe(d), res) as Readable);
  for (const d of decoders) d.once('error', (e) => body.destroy(e));
  res.once('error', (e) => body.destroy(e));
  return new Response(Readable.toWeb(body as Readable) as ReadableStream<Uint8Array>, init);
}

/** The decoders of a Content-Encoding, last applied first, as fetch's; none for one it does not know. */
function decodersOf(encoding: string | undefined): zlib.Gunzip[] {
  const codings = (encoding ?? '').toLowerCase().split(',').map((c) => c.trim()).filter((c) => c && c !== 'identity').reverse();
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const decoders: zlib.Gunzip[] = [];
  for (const coding of codings) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(zlib.createGunzip(flush));
    else if (coding === 'deflate') decoders.push(zlib.createInflate(flush));
    else if (coding === 'br') decoders.push(zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }));
    else return [];
  }
  return decoders;
}
