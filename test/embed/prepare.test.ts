import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { before, describe, test } from 'node:test';
import { loadEmbedder } from '../../src/embed/index.js';
import { onnxFacts } from '../../src/embed/models/onnx-sidecar.js';
import { createStaticEmbedder } from '../../src/embed/runtime/static-embedder.js';
import { CODE_SNIPPETS, freshCacheWithDefaultModel, sharedDefaultModel, tempDir } from './helpers.js';

// An index run sets up the encoder (Embedder.prepare) while the store looks up which contents it holds.
describe('preparing the default model for a few documents', () => {
  before(async () => {
    await freshCacheWithDefaultModel();
  });

  test('documents embed to the same vectors, prepared or not', async () => {
    const texts = Object.values(CODE_SNIPPETS).slice(0, 3);
    const plain = await loadEmbedder('default', { threads: 0 });
    const prepared = await loadEmbedder('default', { threads: 0 });
    try {
      prepared.prepare?.(texts.length);
      assert.deepEqual(await prepared.embed(texts), await plain.embed(texts));
    } finally {
      await plain.close();
      await prepared.close();
    }
  });

  test('sets the encoder up at once: its tokenizer files gone after, the documents still embed', async () => {
    const source = await sharedDefaultModel();
    const { tablePath, dim } = onnxFacts(path.join(source, 'onnx', 'model.onnx')).staticLookup!;
    const modelDir = path.join(tempDir('prepare'), 'model');
    fs.cpSync(source, modelDir, { recursive: true });
    const options = { modelId: 'test', prompts: { query: '', document: '' }, threads: 0 };
    const texts = Object.values(CODE_SNIPPETS).slice(0, 3);
    const plain = createStaticEmbedder(source, { tablePath, dim }, options);
    const prepared = createStaticEmbedder(modelDir, { tablePath, dim }, options);
    try {
      prepared.prepare!(texts.length);
      for (const name of fs.readdirSync(modelDir)) if (name.startsWith('tokenizer')) fs.rmSync(path.join(modelDir, name));
      assert.deepEqual(await prepared.embed(texts), await plain.embed(texts));
    } finally {
      await plain.close();
      await prepared.close();
    }
  });

  test('a model that cannot load: prepare says nothing, the embed that needs it fails', async () => {
    const missing = path.join(os.tmpdir(), 'ocrag-no-such-model');
    const embedder = createStaticEmbedder(missing, { tablePath: path.join(missing, 'table.f32'), dim: 8 }, { modelId: 'none', prompts: { query: '', document: '' }, threads: 0 });
    assert.doesNotThrow(() => embedder.prepare?.(1));
    await assert.rejects(embedder.embed(['fn main() {}']));
    await embedder.close();
  });
});
