import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { S3Objects } from '../../src/store/s3/objects.js';
import { s3Settings } from '../../src/store/s3/settings.js';
import { cloneRepo, makeFixtureRepo, runCli, runJson, tempDir } from '../helpers.js';
import { startS3, type S3Server } from './s3-server.js';

interface ImportSummary {
  file: string;
  chunksAdded: number;
  bytesDownloaded: number;
}

/**
 * Artifacts by URL. The web server is plain http on 127.0.0.1 (https would need a certificate the test makes and
 * Node trusts; the download path is the same fetch), which ocrag accepts from this machine only.
 */
describe('ocrag import of an artifact by URL', () => {
  let origin: string;
  let artifact: Buffer;
  let chunks: number;
  let web: http.Server;
  let base: string;
  let s3: S3Server;

  before(async () => {
    origin = makeFixtureRepo();
    const a = cloneRepo(origin, 'url-a');
    const file = path.join(tempDir('url-artifact'), 'index.tar');
    chunks = (await runJson<{ counts: { chunks: number } }>(['export', '--out', file], a)).counts.chunks;
    artifact = fs.readFileSync(file);
    const tampered = Buffer.from(artifact);
    // A byte in the middle, inside a chunk member: its digest no longer matches.
    tampered[Math.floor(tampered.length / 2)] ^= 0xff;
    web = http.createServer((req, res) => {
      const body = req.url?.startsWith('/good.tar') ? artifact : req.url === '/tampered.tar' ? tampered : null;
      res.writeHead(body ? 200 : 404).end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    s3 = await startS3();
    Object.assign(process.env, s3.env);
    await new S3Objects(s3Settings(process.env), { bucket: 'team', prefix: '' }).put('artifacts/index.tar', artifact);
  });
  after(async () => {
    web.close();
    await s3.stop();
  });

  test('an http(s) artifact is verified and imported; a signed query string is never shown', async () => {
    const b = cloneRepo(origin, 'url-b');
    const imported = await runJson<ImportSummary>(['import', `${base}/good.tar?X-Amz-Signature=secret-sig-123`], b);
    assert.equal(imported.chunksAdded, chunks);
    assert.equal(imported.bytesDownloaded, artifact.length);
    assert.equal(imported.file, `${base}/good.tar`);
    assert.equal((await runJson<{ chunksEmbedded: number }>(['index'], b)).chunksEmbedded, 0);
  });

  test('a tampered artifact is refused exactly as a tampered file, and nothing is written', async () => {
    const b = cloneRepo(origin, 'url-bad');
    const r = await runCli(['import', `${base}/tampered.tar`], b);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /artifact/i);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.equal(fs.existsSync(path.join(b, '.ocrag', 'lance')), false);
    const missing = await runCli(['import', `${base}/nothing.tar`], b);
    assert.equal(missing.code, 6);
    assert.match(missing.stderr, /HTTP 404/);
    const remote = await runCli(['import', 'http://example.com/index.tar'], b);
    assert.equal(remote.code, 2);
    assert.match(remote.stderr, /plain http is accepted only from this machine/);
  });

  test('an s3:// artifact is read with the AWS settings of the environment', async () => {
    const b = cloneRepo(origin, 'url-s3');
    const imported = await runJson<ImportSummary>(['import', 's3://team/artifacts/index.tar'], b, s3.env);
    assert.equal(imported.chunksAdded, chunks);
    const none = await runCli(['import', 's3://team/artifacts/none.tar'], b, s3.env);
    assert.equal(none.code, 6);
    assert.match(none.stderr, /no such artifact: s3:\/\/team\/artifacts\/none.tar/);
  });
});
