// The team bench's S3: s3rver 3.7 on 127.0.0.1 behind a proxy that counts the bytes every answer carries, so
// "bytes fetched" is what crossed the wire to ocrag (LanceDB's reads and ocrag's own), not what the store holds.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface BenchS3 {
  /** The AWS environment pointing at the counting proxy. */
  env: Record<string, string>;
  directory: string;
  /** Bytes of answers since the last reset. */
  bytesOut(): number;
  reset(): void;
  stop(): Promise<void>;
}

export async function startBenchS3(): Promise<BenchS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-team-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: 'team', configs: [] }] });
  const { port } = await server.run();
  let bytes = 0;
  const proxy = http.createServer((req, res) => {
    const up = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (chunk: Buffer) => (bytes += chunk.length));
      answer.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyPort = (proxy.address() as AddressInfo).port;
  return {
    env: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL: `http://127.0.0.1:${proxyPort}`, AWS_ALLOW_HTTP: 'true' },
    directory,
    bytesOut: () => bytes,
    reset: () => (bytes = 0),
    async stop() {
      proxy.close();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Bytes under a folder (what s3rver holds for a prefix). */
export function folderBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let n = 0;
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) if (e.isFile()) n += fs.statSync(path.join(e.parentPath, e.name)).size;
  return n;
}
