import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OcragError } from '../util/errors.js';
import { bodyRefusal, pathOf, refusalOf, type Refusal } from './http-guard.js';

/** The only interface the panel listens on: never reachable from another machine. */
export const LOOPBACK = '127.0.0.1';
/** A body larger than any the panel sends (a query and a few flags). */
const MAX_BODY_BYTES = 64 * 1024;

export interface Request {
  query: URLSearchParams;
  /** The parsed JSON body of a POST; {} for a GET. */
  body: Record<string, unknown>;
}

/** An answer: JSON, the page, a feed of events, or nothing (204). */
export type Reply = { status?: number; headers?: Record<string, string> } & ({ json: unknown } | { html: string } | { events: EventFeed } | { empty: true });

/** Server-sent events: the feed starts sending values through `send` and returns how to stop, called when the client goes. */
export type EventFeed = (send: (value: unknown) => void) => () => void;

export interface Route {
  /** GET reads; POST changes something (starts or stops indexing), so it is never reachable by a GET. */
  method: 'GET' | 'POST';
  path: string;
  /** A page a browser opens by its address: the token may come in the query string (API calls send the header). */
  page?: boolean;
  /** Asked for by a browser on its own (the icon): served without the token, so it must tell nothing. */
  public?: boolean;
  handle: (req: Request) => Promise<Reply>;
}

export interface HttpServer {
  port: number;
  close(): Promise<void>;
}

/** What every answer carries: nothing may be cached, framed, sniffed or told where it was opened from. */
const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/**
 * Serves `routes` on 127.0.0.1 (port 0: any free one). Every request passes the guard first (Host, Origin,
 * token); no CORS header is ever sent, so another site's script cannot read an answer. `onError` hears of
 * failures that are not the caller's (a bug), which answer 500.
 */
export async function startHttpServer(opts: { port: number; token: string; routes: Route[]; onError: (e: unknown) => void }): Promise<HttpServer> {
  const pagePaths = opts.routes.filter((r) => r.page && r.method === 'GET').map((r) => r.path);
  const publicPaths = opts.routes.filter((r) => r.public && r.method === 'GET').map((r) => r.path);
  let port = opts.port;
  const server = http.createServer((req, res) => {
    answer(req, opts.routes, { port, token: opts.token, pagePaths, publicPaths }).then(
      (reply) => send(res, reply),
      (e: unknown) => {
        if (!(e instanceof OcragError) && !(e instanceof HttpError)) opts.onError(e);
        send(res, failure(e));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new OcragError(`port ${opts.port} is in use: choose another with --port, or --port 0 for any free one`, 'failed') : e),
    );
    server.listen(opts.port, LOOPBACK, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(req: http.IncomingMessage, routes: Route[], guard: { port: number; token: string; pagePaths: string[]; publicPaths: string[] }): Promise<Reply> {
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const refused = refusalOf({ method, url, headers: req.headers }, guard);
  if (refused) return refusal(refused);
  const path = pathOf(url);
  const onPath = routes.filter((r) => r.path === path);
  if (onPath.length === 0) return refusal({ status: 404, error: `no such address: ${path}` });
  const route = onPath.find((r) => r.method === method || (method === 'HEAD' && r.method === 'GET'));
  if (!route) {
    const allowed = onPath.map((r) => r.method).join(', ');
    return { ...refusal({ status: 405, error: `${path} takes ${allowed} only` }), headers: { allow: allowed } };
  }
  let body: Record<string, unknown> = {};
  if (route.method === 'POST') {
    const wrongType = bodyRefusal(req.headers['content-type']);
    if (wrongType) return refusal(wrongType);
    body = await readJson(req);
  }
  return route.handle({ query: new URLSearchParams(url.slice(path.length + 1)), body });
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`);
    parts.push(part);
  }
  const text = Buffer.concat(parts).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'the request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, 'the request body must be a JSON object');
  return value as Record<string, unknown>;
}

/** A refusal the caller caused, with its HTTP status: the panel's own, not one of ocrag's failures. */
export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

function refusal(r: Refusal): Reply {
  return { status: r.status, json: { error: r.error } };
}

/** An OcragError is the caller's or the index's state (400 for a bad request, else 409); anything else is ours (500). */
function failure(e: unknown): Reply {
  if (e instanceof HttpError) return refusal({ status: e.status, error: e.message });
  if (e instanceof OcragError) return refusal({ status: e.kind === 'usage' ? 400 : 409, error: e.message });
  return refusal({ status: 500, error: `internal error: ${(e as Error)?.message ?? String(e)}` });
}

function send(res: http.ServerResponse, reply: Reply): void {
  if ('events' in reply) return stream(res, reply.events);
  if ('empty' in reply) {
    res.writeHead(reply.status ?? 204, { ...COMMON_HEADERS, ...reply.headers });
    res.end();
    return;
  }
  const html = 'html' in reply;
  res.writeHead(reply.status ?? 200, { ...COMMON_HEADERS, ...reply.headers, 'content-type': html ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8' });
  res.end(html ? reply.html : JSON.stringify(reply.json));
}

function stream(res: http.ServerResponse, feed: EventFeed): void {
  res.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
  const stop = feed((value) => res.write(`data: ${JSON.stringify(value)}\n\n`));
  res.once('close', stop);
}
