import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadEmbedder } from '../../src/embed/index.js';
import { chunkerVersion } from '../../src/chunk/index.js';
import { openContext } from '../../src/index/context.js';
import { localIdentity } from '../../src/share/local-identity.js';
import { makeFixtureRepo, tempDir, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

test('an import learns the default model identity from its description, as loading it would give', async () => {
  const ctx = await openContext(makeFixtureRepo());
  const identity = await localIdentity(ctx, () => Promise.reject(new Error('the model was loaded')));
  const model = await loadEmbedder(ctx.config.model);
  try {
    assert.deepEqual(identity, { modelId: model.modelId, dim: model.dim, chunkerVersion: chunkerVersion() });
  } finally {
    await model.close();
  }
});

test('a model its description cannot size is loaded (which reports a broken one)', async () => {
  const ctx = await openContext(makeFixtureRepo(), { model: tempDir('not-a-model') });
  let loads = 0;
  const identity = await localIdentity(ctx, async () => {
    loads++;
    return { modelId: 'folder-model', dim: 7 };
  });
  assert.equal(loads, 1);
  assert.deepEqual(identity, { modelId: 'folder-model', dim: 7, chunkerVersion: chunkerVersion() });
});
