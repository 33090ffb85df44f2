import { timingSafeEqual } from 'node:crypto';

/** The header every API call carries the panel's token in. */
export const TOKEN_HEADER = 'x-ocrag-token';

/** What a request must show before anything is served: where it was sent, where it comes from, and the token. */
export interface GuardedRequest {
  method: string;
  /** The path and query, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface Refusal {
  status: number;
  error: string;
}

export interface GuardOptions {
  port: number;
  token: string;
  /** Paths a browser opens by address (the page), where the token may come in the query string instead. */
  pagePaths: readonly string[];
  /**
   * Paths a browser asks for by itself, without the page's address (`/favicon.ico`): a GET of one needs no token,
   * so its answer must tell nothing of the repository. Host and Origin are checked as for any other request.
   */
  publicPaths?: readonly string[];
}

/**
 * Why a request is refused, or null when it may be served. Checked in this order, so a refusal never says more
 * than the caller already knows: the Host a DNS-rebinding page would send with its own name (421), a foreign
 * Origin (403), then the token (401 missing, 403 wrong), which a GET of a public path does without. Pure: the
 * server applies it to every request.
 */
export function refusalOf(req: GuardedRequest, opts: GuardOptions): Refusal | null {
  const own = ownHosts(opts.port);
  const host = single(req.headers.host)?.toLowerCase();
  if (!host || !own.includes(host)) return { status: 421, error: `this panel answers only as ${own.join(' or ')}` };
  const origin = single(req.headers.origin);
  if (origin !== undefined && !own.some((h) => origin.toLowerCase() === `http://${h}`)) return { status: 403, error: 'requests from another origin are refused' };
  if ((req.method === 'GET' || req.method === 'HEAD') && opts.publicPaths?.includes(pathOf(req.url))) return null;
  const given = single(req.headers[TOKEN_HEADER]) ?? (opts.pagePaths.includes(pathOf(req.url)) && req.method === 'GET' ? queryToken(req.url) : undefined);
  if (given === undefined || given === '') return { status: 401, error: `the panel's token is missing: open the address "ocrag ui" printed` };
  if (!sameSecret(given, opts.token)) return { status: 403, error: "the panel's token is wrong: open the address the running \"ocrag ui\" printed" };
  return null;
}

/** A POST body the API reads: JSON, said so by its content type. Null when it is acceptable. */
export function bodyRefusal(contentType: string | undefined): Refusal | null {
  const type = contentType?.split(';')[0].trim().toLowerCase();
  return type === 'application/json' ? null : { status: 415, error: 'send the request body as application/json' };
}

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function ownHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

function queryToken(url: string): string | undefined {
  return new URLSearchParams(url.slice(pathOf(url).length + 1)).get('token') ?? undefined;
}

/** A header sent twice is refused rather than guessed at. */
function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? (value.length === 1 ? value[0] : '\u0000') : value;
}

function sameSecret(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
