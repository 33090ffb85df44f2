import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OcragError } from '../../util/errors.js';
import type { SigningKeys } from './sigv4.js';

/** A bucket and a key prefix, from `s3://bucket/prefix`. */
export interface S3Place {
  bucket: string;
  /** The key prefix without a trailing slash ('' for the bucket's root). */
  prefix: string;
}

/** How to reach S3 or a compatible server: the standard AWS settings, read from the environment or ~/.aws. */
export interface S3Settings extends SigningKeys {
  /** AWS_ENDPOINT_URL (MinIO, R2, a test server); null: AWS itself, addressed by region. */
  endpoint: string | null;
  /** AWS_ALLOW_HTTP=true: a plain-HTTP endpoint is allowed (else only https). */
  allowHttp: boolean;
}

export function parseS3Uri(uri: string): S3Place {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(uri);
  if (!m) throw new OcragError(`invalid S3 location "${uri}": expected s3://bucket/prefix`);
  return { bucket: m[1], prefix: (m[2] ?? '').replace(/\/+$/, '') };
}

/**
 * The AWS settings as the AWS CLI reads them: the environment first (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 * AWS_SESSION_TOKEN, AWS_REGION or AWS_DEFAULT_REGION, AWS_ENDPOINT_URL, AWS_ALLOW_HTTP), then the profile
 * (AWS_PROFILE, else "default") of ~/.aws/credentials and ~/.aws/config. Keys stay in memory: nothing writes them.
 */
export function s3Settings(env: NodeJS.ProcessEnv): S3Settings {
  const profile = env.AWS_PROFILE || 'default';
  const home = os.homedir();
  const creds = iniSection(env.AWS_SHARED_CREDENTIALS_FILE || path.join(home, '.aws', 'credentials'), profile);
  const config = iniSection(env.AWS_CONFIG_FILE || path.join(home, '.aws', 'config'), profile === 'default' ? 'default' : `profile ${profile}`);
  const accessKeyId = env.AWS_ACCESS_KEY_ID || creds.aws_access_key_id;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY || creds.aws_secret_access_key;
  if (!accessKeyId || !secretAccessKey) throw new OcragError('no AWS credentials for the S3 store: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or a profile in ~/.aws/credentials)');
  const endpoint = (env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || config.endpoint_url || '').replace(/\/+$/, '') || null;
  const allowHttp = /^(1|true|yes)$/i.test(env.AWS_ALLOW_HTTP ?? '');
  if (endpoint && !/^https?:\/\/[^/]+$/.test(endpoint)) throw new OcragError(`invalid AWS_ENDPOINT_URL "${endpoint}": expected http(s)://host[:port]`);
  if (endpoint?.startsWith('http://') && !allowHttp) throw new OcragError(`AWS_ENDPOINT_URL ${endpoint} is plain HTTP: set AWS_ALLOW_HTTP=true to allow it`);
  const sessionToken = env.AWS_SESSION_TOKEN || creds.aws_session_token || undefined;
  return { accessKeyId, secretAccessKey, sessionToken, region: env.AWS_REGION || env.AWS_DEFAULT_REGION || config.region || 'us-east-1', endpoint, allowHttp };
}

/** The settings as LanceDB's storage options (object_store's keys); handed to it in memory, per connection. */
export function lanceStorageOptions(s: S3Settings): Record<string, string> {
  const out: Record<string, string> = { aws_access_key_id: s.accessKeyId, aws_secret_access_key: s.secretAccessKey, aws_region: s.region };
  if (s.sessionToken) out.aws_session_token = s.sessionToken;
  if (s.endpoint) out.aws_endpoint = s.endpoint;
  if (s.allowHttp) out.allow_http = 'true';
  return out;
}

/** One section of an INI file as the AWS CLI writes them; {} when the file or section is absent. */
function iniSection(file: string, section: string): Record<string, string> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  let inside = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const head = /^\[(.+)\]$/.exec(line);
    if (head) inside = head[1].trim() === section;
    else if (inside && line.includes('=') && !line.startsWith('#')) {
      const at = line.indexOf('=');
      out[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
  }
  return out;
}
