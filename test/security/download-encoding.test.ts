import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { committedRepo, runCli, tempDir } from '../helpers.js';

test('an artifact URL answering with a gzip bomb (Content-Encoding: gzip) is refused before anything is unpacked', async () => {
  // 64 MiB of zeros in ~64 KiB of gzip: fetch would unpack it, unasked, onto the disk.
  const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  const asked: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.headers['accept-encoding']);
    res.writeHead(200, { 'content-type': 'application/x-tar', 'content-encoding': 'gzip', 'content-length': bomb.length });
    res.end(bomb);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const repo = committedRepo(tempDir('gzip-bomb'), { 'app.py': 'def main():\n    return 1\n' }, 'one file');
    const tmp = tempDir('gzip-bomb-tmp');
    const r = await runCli(['import', `http://127.0.0.1:${(server.address() as AddressInfo).port}/index.tar`], repo, { TMPDIR: tmp });
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, /^ocrag: http:\/\/127\.0\.0\.1:\d+\/index\.tar: answered with Content-Encoding gzip, but a download is taken only as it is stored/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.deepEqual(asked, ['identity'], 'the download asks for the bytes as stored');
    assert.deepEqual(fs.readdirSync(tmp), [], 'no temporary file left');
    assert.ok(!fs.existsSync(`${repo}/.ocrag/manifests`), 'nothing imported');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
