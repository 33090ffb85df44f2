import fs from 'node:fs';
import path from 'node:path';
import S3rver from 's3rver';
import { tempDir } from '../helpers.js';

/** s3rver's own keys: it checks every request's SigV4 signature against them. */
export const S3_KEYS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export interface S3Server {
  port: number;
  /** The AWS environment that points ocrag at this server. */
  env: Record<string, string>;
  /** Where s3rver keeps the objects (a bucket is a folder), to tamper with them. */
  directory: string;
  stop(): Promise<void>;
}

/** A real S3-compatible server (s3rver 3.7) on 127.0.0.1, port 0, objects in a temp folder, one bucket "team". */
export async function startS3(bucket = 'team'): Promise<S3Server> {
  const directory = tempDir('s3');
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const env = { ...S3_KEYS, AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`, AWS_REGION: 'us-east-1', AWS_ALLOW_HTTP: 'true' };
  return { port, env, directory, stop: () => server.close() };
}

/** Every file under a folder, for grepping. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}
