import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadEmbedder, pullModel } from '../../src/embed/index.js';
import { freshCacheWithDefaultModel, snapshot, tempDir } from './helpers.js';
import { writeTinyModel } from './tiny-models.js';

describe('pullModel', () => {
  let cache: string;
  let defaultDir: string;
  const savedEndpoint = process.env.HF_ENDPOINT;

  before(async () => {
    cache = await freshCacheWithDefaultModel();
    defaultDir = path.join(cache, 'models', 'ocrag', 'use-static-v2');
  });
  after(() => {
    if (savedEndpoint === undefined) delete process.env.HF_ENDPOINT;
    else process.env.HF_ENDPOINT = savedEndpoint;
  });

  test('fails fast offline with a one-line hint and leaves the cache unchanged', async () => {
    delete process.env.HF_ENDPOINT;
    const before = snapshot(cache);
    const started = Date.now();
    await assert.rejects(pullModel('Xenova/all-MiniLM-L6-v2'), (err: Error) => {
      assert.match(err.message, /^could not reach the model hub \(https:\/\/huggingface\.co: .+\); copy a model folder and pass --model <folder>$/);
      assert.ok(!err.message.includes('\n'));
      return true;
    });
    assert.ok(Date.now() - started < 11_000, `took ${Date.now() - started} ms`);
    assert.deepEqual(snapshot(cache), before);
  });

  test('a hub that accepts connections but never answers times out', async () => {
    const silent = http.createServer(() => undefined); // never responds
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    process.env.HF_ENDPOINT = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const before = snapshot(cache);
    try {
      const started = Date.now();
      await assert.rejects(pullModel('acme/slow', { timeoutMs: 500 }), /could not reach the model hub .*no answer within 0\.5 s/);
      assert.ok(Date.now() - started < 5_000);
      assert.deepEqual(snapshot(cache), before);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  test('rejects ids that are not owner/name', async () => {
    await assert.rejects(pullModel('../etc'), /not a hub model id/);
    await assert.rejects(pullModel('just-a-name'), /not a hub model id/);
  });

  describe('against a local stand-in for the hub', () => {
    let server: http.Server;
    let layoutDir: string;
    const requests: string[] = [];

    before(async () => {
      // Serves the default model's files for any "<owner>/<name>/resolve/main/<file>" path; acme/layout is a made-up
      // tiny model in sentence-transformers layout.
      layoutDir = writeTinyModel(path.join(tempDir('hub-layout'), 'layout'), { poolingFlags: ['pooling_mode_cls_token'], sentenceBertConfig: { max_seq_length: 128 } });
      server = http.createServer((req, res) => {
        requests.push(`${req.method} ${req.url}`);
        const match = /^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/.exec(req.url ?? '');
        const root = match?.[1] === 'acme/layout' ? layoutDir : defaultDir;
        const file = match && match[1] !== 'acme/missing' ? path.join(root, match[2]) : '';
        if (!file || !fs.existsSync(file) || match![2].includes('ocrag')) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-length': fs.statSync(file).size });
        if (req.method === 'HEAD') res.end();
        else fs.createReadStream(file).pipe(res);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      process.env.HF_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => server.close());

    test('downloads a complete model atomically; it then loads by id', async () => {
      const progress: string[] = [];
      const dir = await pullModel('acme/tiny', { onProgress: (m) => progress.push(m) });
      assert.equal(dir, path.join(cache, 'models', 'acme', 'tiny'));
      assert.ok(progress.some((m) => m.includes('onnx/model.onnx')));
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'ocrag-model.json'), 'utf8'));
      assert.equal(manifest.kind, 'pulled');
      assert.equal(manifest.files['onnx/model.onnx'].bytes, fs.statSync(path.join(defaultDir, 'onnx', 'model.onnx')).size);
      assert.deepEqual(fs.readdirSync(path.join(cache, 'models', '.tmp')), []);
      const embedder = await loadEmbedder('acme/tiny', { threads: 0 });
      assert.match(embedder.modelId, /^acme\/tiny@[0-9a-f]{12}$/);
      await embedder.close();
      // Already there: a second pull does not download again.
      const count = requests.length;
      assert.equal(await pullModel('acme/tiny'), dir);
      assert.equal(requests.length, count);
    });

    test('also fetches the files that say how the model pools and truncates (modules.json names the pooling folder)', async () => {
      const dir = await pullModel('acme/layout');
      for (const rel of ['modules.json', '1_Pooling/config.json', 'sentence_bert_config.json']) assert.ok(fs.existsSync(path.join(dir, rel)), rel);
      const embedder = await loadEmbedder('acme/layout', { threads: 0 });
      assert.match(embedder.modelId, /^acme\/layout@[0-9a-f]{12}\+cls\+len128$/);
      await embedder.close();
    });

    test('a model the hub does not have fails before touching the cache', async () => {
      const before = snapshot(cache);
      await assert.rejects(pullModel('acme/missing'), /model "acme\/missing" not found on the hub \(404\)/);
      assert.deepEqual(snapshot(cache), before);
    });
  });
});
