import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { DEFAULT_MODEL_ID, describeModel, loadEmbedder, modelCacheDir } from '../../src/embed/index.js';
import { freshCacheWithDefaultModel, snapshot, tempDir } from './helpers.js';

describe('model resolution and cache safety (no build: the shared test model is copied in)', () => {
  let cache: string;
  let defaultDir: string;

  before(async () => {
    cache = await freshCacheWithDefaultModel();
    defaultDir = path.join(cache, 'models', 'ocrag', 'use-static-v2');
  });

  test('the cache lives at $OCRAG_CACHE, else $XDG_CACHE_HOME/ocrag, else ~/.cache/ocrag', () => {
    assert.equal(modelCacheDir(), cache);
    const saved = { OCRAG_CACHE: process.env.OCRAG_CACHE, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
    try {
      delete process.env.OCRAG_CACHE;
      process.env.XDG_CACHE_HOME = '/somewhere/xdg';
      assert.equal(modelCacheDir(), path.resolve('/somewhere/xdg/ocrag'));
      delete process.env.XDG_CACHE_HOME;
      assert.match(modelCacheDir(), /[/\\]\.cache[/\\]ocrag$/);
    } finally {
      process.env.OCRAG_CACHE = saved.OCRAG_CACHE;
      if (saved.XDG_CACHE_HOME === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved.XDG_CACHE_HOME;
    }
  });

  test('"default", undefined and the default id all load the default model on the static path', async () => {
    for (const spec of [undefined, 'default', DEFAULT_MODEL_ID]) {
      const embedder = await loadEmbedder(spec, { threads: 0 });
      assert.equal(embedder.modelId, DEFAULT_MODEL_ID);
      assert.equal(embedder.dim, 512);
      await embedder.close();
    }
  });

  test('an unknown model id fails with a clear, actionable message', async () => {
    await assert.rejects(loadEmbedder('acme/no-such-model'), (err: Error) => {
      assert.equal(
        err.message,
        `model "acme/no-such-model" not found in ${path.join(cache, 'models')}; run "ocrag model pull acme/no-such-model" when online or pass a folder`,
      );
      return true;
    });
  });

  test('a missing or incomplete folder is reported as such', async () => {
    await assert.rejects(loadEmbedder('./definitely/not/here'), /does not exist: it needs config\.json, tokenizer\.json and onnx\/model\.onnx/);
    const partial = tempDir('partial');
    fs.writeFileSync(path.join(partial, 'config.json'), '{}');
    await assert.rejects(loadEmbedder(partial), /is not a complete model folder/);
  });

  test('a half-built cached model (truncated file, missing ONNX) is never used', async () => {
    const broken = path.join(cache, 'models', 'acme', 'half-built');
    fs.cpSync(defaultDir, broken, { recursive: true });
    const manifestPath = path.join(broken, 'ocrag-model.json');
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    fs.writeFileSync(manifestPath, JSON.stringify({ ...manifest, name: 'acme/half-built' }));
    fs.truncateSync(path.join(broken, 'onnx', 'model.onnx'), 1000);
    await assert.rejects(loadEmbedder('acme/half-built'), /not found/);
    assert.equal((await describeModel('acme/half-built')).built, false);
    fs.rmSync(path.join(broken, 'onnx'), { recursive: true });
    await assert.rejects(loadEmbedder('acme/half-built'), /not found/);
  });

  test('a default model whose files no longer match its manifest counts as not built', async () => {
    const copy = path.join(tempDir('cache2'), 'models', 'ocrag', 'use-static-v2');
    fs.cpSync(defaultDir, copy, { recursive: true });
    fs.appendFileSync(path.join(copy, 'tokenizer.json'), ' ');
    const saved = process.env.OCRAG_CACHE;
    process.env.OCRAG_CACHE = path.resolve(copy, '..', '..', '..');
    try {
      const info = await describeModel('default');
      assert.equal(info.built, false);
      assert.equal(info.id, DEFAULT_MODEL_ID);
    } finally {
      process.env.OCRAG_CACHE = saved;
    }
  });

  test('a folder path loads that folder; a copy of the default model keeps its id', async () => {
    const folder = path.join(tempDir('folder'), 'my-model');
    fs.cpSync(defaultDir, folder, { recursive: true });
    const relative = path.relative(process.cwd(), folder);
    for (const spec of [folder, relative.startsWith('.') ? relative : `./${relative}`]) {
      const embedder = await loadEmbedder(spec, { threads: 0 });
      assert.equal(embedder.modelId, DEFAULT_MODEL_ID);
      await embedder.close();
    }
  });

  test('other models get "<name>@<12 hex of the ONNX sha256>", stable across copies', async () => {
    const a = path.join(tempDir('foreign'), 'tiny-model');
    fs.cpSync(defaultDir, a, { recursive: true });
    fs.rmSync(path.join(a, 'ocrag-model.json'));
    for (const f of fs.readdirSync(path.join(a, 'onnx'))) if (f !== 'model.onnx') fs.rmSync(path.join(a, 'onnx', f));
    const b = path.join(tempDir('foreign'), 'tiny-model');
    fs.cpSync(a, b, { recursive: true });
    const first = await loadEmbedder(a, { threads: 0 });
    const second = await loadEmbedder(b, { threads: 0 });
    assert.match(first.modelId, /^tiny-model@[0-9a-f]{12}$/);
    assert.equal(second.modelId, first.modelId);
    // The static fast path still applies, found by inspecting the graph, and its sidecar is cached.
    assert.ok(fs.existsSync(path.join(a, 'onnx', 'model.onnx.ocrag-table.f32')));
    assert.deepEqual(await first.embed(['x = 1']), await second.embed(['x = 1']));
    await first.close();
    await second.close();
  });

  test('a model folder that cannot take sidecars works: they go to the cache instead', async () => {
    const folder = path.join(tempDir('ro'), 'ro-model');
    fs.cpSync(defaultDir, folder, { recursive: true });
    fs.rmSync(path.join(folder, 'ocrag-model.json'));
    for (const f of fs.readdirSync(path.join(folder, 'onnx'))) if (f !== 'model.onnx') fs.rmSync(path.join(folder, 'onnx', f));
    // Directories squatting on the sidecar names make writing them fail even as root (chmod would not).
    fs.mkdirSync(path.join(folder, 'onnx', 'model.onnx.ocrag.json'));
    fs.mkdirSync(path.join(folder, 'onnx', 'model.onnx.ocrag-table.f32'));
    const embedder = await loadEmbedder(folder, { threads: 0 });
    assert.equal((await embedder.embed(['hello']))[0].length, 512);
    await embedder.close();
    assert.deepEqual(fs.readdirSync(path.join(folder, 'onnx')).sort(), ['model.onnx', 'model.onnx.ocrag-table.f32', 'model.onnx.ocrag.json']);
    const slots = fs.readdirSync(path.join(cache, 'sidecars'));
    assert.ok(slots.some((slot) => fs.existsSync(path.join(cache, 'sidecars', slot, 'model.onnx.ocrag-table.f32'))));
  });

  test('loading never writes into the default model folder beyond its sidecars', async () => {
    const before = snapshot(defaultDir);
    const embedder = await loadEmbedder('default', { threads: 0 });
    await embedder.embed(['a', 'b']);
    await embedder.close();
    assert.deepEqual(snapshot(defaultDir), before);
  });
});
