import { createHash } from 'node:crypto';
import { environment } from '../../config/environment.js';
import { RemoteUnavailableError } from '../../util/errors.js';
import { fetchRemote, readBody, remoteLimits, saveBody } from '../../util/fetch-remote.js';
import type { S3Place, S3Settings } from './settings.js';
import { awsEncode, EMPTY_SHA256, signS3Request } from './sigv4.js';

/** The most an identity, a manifest record or the lease may hold: each is a few hundred bytes to a few KiB. */
const SMALL_OBJECT_BYTES = 1024 * 1024;

/**
 * Plain objects under one S3 prefix (the identity, the manifests, the lease; an artifact by URL), by signed HTTP
 * requests through Node's fetch: LanceDB reads and writes the tables itself, but offers no access to other
 * objects, and a SigV4 signature is 40 lines of node:crypto where an SDK would be a large new dependency.
 */
export class S3Objects {
  /** Bytes of response bodies read, for measuring what a clone fetches. */
  bytesRead = 0;

  constructor(
    private readonly settings: S3Settings,
    readonly place: S3Place,
  ) {}

  /** `s3://bucket/prefix/key`, for messages (no credential is ever part of it). */
  shown(key = ''): string {
    return `s3://${this.place.bucket}/${this.fullKey(key)}`;
  }

  /**
   * The object's bytes, or null when there is none. Records are small: past `maxBytes` (default 1 MiB) the read
   * stops with an error, so a hostile or broken remote cannot fill memory; a larger object says its size.
   */
  async get(key: string, maxBytes = SMALL_OBJECT_BYTES): Promise<Buffer | null> {
    const res = await this.request('GET', key, {});
    if (res.status === 404) return null;
    await this.check(res, 'GET', key);
    const body = await readBody(res, this.shown(key), { maxBytes, limits: remoteLimits(environment()) });
    this.bytesRead += body.length;
    return body;
  }

  /** Streams the object into a file (an artifact); false when there is none. */
  async download(key: string, file: string): Promise<boolean> {
    const res = await this.request('GET', key, {});
    if (res.status === 404) return false;
    await this.check(res, 'GET', key);
    this.bytesRead += await saveBody(res, file, this.shown(key), remoteLimits(environment()));
    return true;
  }

  /** Writes the object; with `ifAbsent`, only if there is none yet (false when there was: S3's If-None-Match). */
  async put(key: string, body: Buffer | string, opts: { ifAbsent?: boolean } = {}): Promise<boolean> {
    const bytes = Buffer.from(body);
    const res = await this.request('PUT', key, { body: bytes, headers: opts.ifAbsent ? { 'if-none-match': '*' } : {} });
    if (opts.ifAbsent && (res.status === 412 || res.status === 409)) return false;
    await this.check(res, 'PUT', key);
    return true;
  }

  async delete(key: string): Promise<void> {
    const res = await this.request('DELETE', key, {});
    if (res.status !== 404) await this.check(res, 'DELETE', key);
  }

  private fullKey(key: string): string {
    return [this.place.prefix, key].filter(Boolean).join('/');
  }

  /** Path-style at a configured endpoint (what compatible servers serve), virtual-hosted at AWS itself. */
  private url(key: string): URL {
    const path = this.fullKey(key).split('/').map(awsEncode).join('/');
    const { endpoint, region } = this.settings;
    return endpoint ? new URL(`${endpoint}/${this.place.bucket}/${path}`) : new URL(`https://${this.place.bucket}.s3.${region}.amazonaws.com/${path}`);
  }

  /** Bounded as every remote call is (util/fetch-remote.ts: OCRAG_REMOTE_TIMEOUT_MS, OCRAG_REMOTE_DEADLINE_MS). */
  private async request(method: string, key: string, opts: { body?: Buffer; headers?: Record<string, string> }): Promise<Response> {
    const url = this.url(key);
    const payloadSha256 = opts.body ? createHash('sha256').update(opts.body).digest('hex') : EMPTY_SHA256;
    const headers = signS3Request({ method, url, headers: opts.headers ?? {}, payloadSha256 }, this.settings, new Date());
    delete headers.host;
    return fetchRemote(url, { method, headers, body: opts.body ? new Uint8Array(opts.body) : undefined }, this.shown(key), remoteLimits(environment()));
  }

  /** A failed answer as one line: the status and S3's error code, nothing of the request. */
  private async check(res: Response, method: string, key: string): Promise<void> {
    if (res.ok) return;
    const text = (await readBody(res, this.shown(key), { maxBytes: 64 * 1024, limits: remoteLimits(environment()) }).catch(() => Buffer.alloc(0))).toString('utf8');
    const code = /<Code>([^<]{1,64})<\/Code>/.exec(text)?.[1];
    throw new RemoteUnavailableError(`${this.shown(key)}: ${method} answered HTTP ${res.status}${code ? ` ${code}` : ''}`, false);
  }
}
