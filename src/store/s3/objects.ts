import { createHash } from 'node:crypto';
import { RemoteUnavailableError } from '../../util/errors.js';
import { environment } from '../../config/environment.js';
import { fetchRemote, readBody, remoteLimits, saveBody } from '../../util/fetch-remote.js';
import { SMALL_OBJECT_BYTES, type ObjectStore, type ObjectStoreProvider, type ObjectTables } from '../object-store.js';
import { lanceStorageOptions, parseS3Uri, s3Settings, type S3Place, type S3Settings } from './settings.js';
import { awsEncode, EMPTY_SHA256, signS3Request } from './sigv4.js';

/** A remote on S3 or a compatible server (MinIO, R2, s3rver), with the AWS settings of the environment or ~/.aws. */
export const s3Provider: ObjectStoreProvider = {
  example: 's3://bucket/prefix',
  open: (url) => new S3Objects(s3Settings(environment()), parseS3Uri(url)),
};

/**
 * Plain objects under one S3 prefix (the identity, the manifests, the lease; an artifact by URL), by signed HTTP
 * requests through Node's fetch: LanceDB reads and writes the tables itself, but offers no access to other
 * objects, and a SigV4 signature is 40 lines of node:crypto where an SDK would be a large new dependency.
 */
export class S3Objects implements ObjectStore {
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

  /** ListObjectsV2 of the bucket, page by page (1,000 keys each). */
  async list(prefix: string): Promise<string[]> {
    const root = this.fullKey('');
    const keys: string[] = [];
    let token: string | null = null;
    do {
      const query: Record<string, string> = { 'list-type': '2', prefix: root ? `${root}/${prefix}` : prefix, ...(token ? { 'continuation-token': token } : {}) };
      const res = await this.request('GET', null, { query });
      await this.check(res, 'GET', prefix);
      const xml = (await readBody(res, this.shown(prefix), { maxBytes: 16 * SMALL_OBJECT_BYTES, limits: remoteLimits(environment()) })).toString('utf8');
      for (const [, key] of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) keys.push(xmlText(key).slice(root ? root.length + 1 : 0));
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? xmlText(/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1] ?? '') || null : null;
    } while (token);
    return keys.sort();
  }

  tables(key: string): ObjectTables {
    return { uri: `s3://${this.place.bucket}/${this.fullKey(key)}`, storageOptions: lanceStorageOptions(this.settings) };
  }

  private fullKey(key: string): string {
    return [this.place.prefix, key].filter(Boolean).join('/');
  }

  /** Path-style at a configured endpoint (what compatible servers serve), virtual-hosted at AWS itself; a null key is the bucket. */
  private url(key: string | null, query: Record<string, string> = {}): URL {
    const path = key === null ? '' : this.fullKey(key).split('/').map(awsEncode).join('/');
    const { endpoint, region } = this.settings;
    const url = endpoint ? new URL(`${endpoint}/${this.place.bucket}${key === null ? '' : '/'}${path}`) : new URL(`https://${this.place.bucket}.s3.${region}.amazonaws.com/${path}`);
    // Encoded as the signature encodes it (URLSearchParams would write a space as `+`).
    url.search = Object.entries(query).map(([k, v]) => `${awsEncode(k)}=${awsEncode(v)}`).join('&');
    return url;
  }

  /** Bounded as every remote call is (util/fetch-remote.ts: OCRAG_REMOTE_TIMEOUT_MS, OCRAG_REMOTE_DEADLINE_MS). */
  private async request(method: string, key: string | null, opts: { body?: Buffer; headers?: Record<string, string>; query?: Record<string, string> }): Promise<Response> {
    const url = this.url(key, opts.query);
    const payloadSha256 = opts.body ? createHash('sha256').update(opts.body).digest('hex') : EMPTY_SHA256;
    const headers = signS3Request({ method, url, headers: opts.headers ?? {}, payloadSha256 }, this.settings, new Date());
    delete headers.host;
    return fetchRemote(url, { method, headers, body: opts.body ? new Uint8Array(opts.body) : undefined }, this.shown(key ?? ''), remoteLimits(environment()));
  }

  /** A failed answer as one line: the status and S3's error code, nothing of the request. */
  private async check(res: Response, method: string, key: string): Promise<void> {
    if (res.ok) return;
    const text = (await readBody(res, this.shown(key), { maxBytes: 64 * 1024, limits: remoteLimits(environment()) }).catch(() => Buffer.alloc(0))).toString('utf8');
    const code = /<Code>([^<]{1,64})<\/Code>/.exec(text)?.[1];
    throw new RemoteUnavailableError(`${this.shown(key)}: ${method} answered HTTP ${res.status}${code ? ` ${code}` : ''}`, false);
  }
}

/** XML's five escapes, as S3 writes a key that holds `&`, `<` or quotes. */
function xmlText(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => (e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : named[e.toLowerCase()]));
}
