import { createHash, createHmac } from 'node:crypto';

/** What signs a request: the caller's keys (never logged or shown) and where they are valid. */
export interface SigningKeys {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  region: string;
}

/** The SHA-256 of an empty body, which S3 wants stated for GET, HEAD and DELETE. */
export const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');

/** RFC 3986 encoding as AWS wants it: everything but A-Z a-z 0-9 - _ . ~ escaped (encodeURIComponent leaves !'()*). */
export function awsEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The headers that sign one S3 request by AWS Signature Version 4 (service "s3", the payload's hash stated, not
 * streamed). A pure function of its inputs, so it is checked against AWS's published example.
 */
export function signS3Request(req: { method: string; url: URL; headers: Record<string, string>; payloadSha256: string }, keys: SigningKeys, now: Date): Record<string, string> {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = { ...lowerKeys(req.headers), host: req.url.host, 'x-amz-content-sha256': req.payloadSha256, 'x-amz-date': amzDate };
  if (keys.sessionToken) headers['x-amz-security-token'] = keys.sessionToken;
  const names = Object.keys(headers).sort();
  const query = [...req.url.searchParams].map(([k, v]) => `${awsEncode(k)}=${awsEncode(v)}`).sort().join('&');
  const canonical = [req.method, req.url.pathname, query, names.map((n) => `${n}:${headers[n].trim()}\n`).join(''), names.join(';'), req.payloadSha256].join('\n');
  const scope = `${day}/${keys.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${keys.secretAccessKey}`, day), keys.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(toSign).digest('hex');
  return { ...headers, authorization: `AWS4-HMAC-SHA256 Credential=${keys.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}` };
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
