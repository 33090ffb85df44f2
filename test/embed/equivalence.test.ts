import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_MODEL_ID, loadEmbedder, type Embedder } from '../../src/embed/index.js';
import { MAX_CHARS } from '../../src/embed/runtime/text-limits.js';
import { CODE_SNIPPETS, cosine, freshCacheWithDefaultModel, norm } from './helpers.js';

/** Threads of this process (Linux), or null elsewhere. */
function threadCount(): number | null {
  return process.platform === 'linux' ? fs.readdirSync('/proc/self/task').length : null;
}

const TEXTS = [
  ...Object.values(CODE_SNIPPETS),
  'parse command line arguments',
  'HTTPServer.listen(port) // camelCase and ACRONYMCase identifiers',
  'snake_case_name = $jquery_style + __dunder__',
  'x',
  'naïve café — Unicode, 日本語, emoji 🙂',
  '\t\n  indented\n\n\tcode  ',
  'a'.repeat(3000),
];

describe('static fast path vs Transformers.js pipeline on the default model', () => {
  let fast: Embedder;
  let pipeline: Embedder;
  let fastVectors: Float32Array[];
  let pipelineVectors: Float32Array[];

  before(async () => {
    await freshCacheWithDefaultModel();
    fast = await loadEmbedder('default', { threads: 0 });
    pipeline = await loadEmbedder('default', { backend: 'pipeline' });
    fastVectors = await fast.embed(TEXTS);
    pipelineVectors = await pipeline.embed(TEXTS);
  });
  after(async () => {
    await fast.close();
    await pipeline.close();
  });

  test('both report the same id and dimension', () => {
    assert.equal(fast.modelId, DEFAULT_MODEL_ID);
    assert.equal(pipeline.modelId, DEFAULT_MODEL_ID);
    assert.equal(fast.dim, 512);
    assert.equal(pipeline.dim, 512);
  });

  test('give the same vectors (cosine > 0.999) on code snippets and odd inputs', () => {
    TEXTS.forEach((text, i) => {
      const c = cosine(fastVectors[i], pipelineVectors[i]);
      assert.ok(c > 0.999, `cosine ${c} for ${JSON.stringify(text.slice(0, 40))}`);
    });
  });

  test('agree on queries too', async () => {
    for (const q of ['parse command line arguments', 'convert hex colour to rgb']) {
      assert.ok(cosine(await fast.embedQuery(q), await pipeline.embedQuery(q)) > 0.999);
    }
  });

  test('agree on texts longer than the character limit (both cut them the same way)', async () => {
    const long = Object.values(CODE_SNIPPETS).join('\n').repeat(Math.ceil((MAX_CHARS * 1.5) / 2000));
    assert.ok(long.length > MAX_CHARS);
    const [a] = await fast.embed([long]);
    const [b] = await pipeline.embed([long]);
    assert.ok(cosine(a, b) > 0.999);
  });

  test('vectors are unit-norm, and blank input gives zeros on both paths', async () => {
    for (const v of [...fastVectors, ...pipelineVectors]) assert.ok(Math.abs(norm(v) - 1) < 1e-5);
    for (const embedder of [fast, pipeline]) {
      const [empty, blank] = await embedder.embed(['', ' \n\t ']);
      assert.equal(empty.length, 512);
      assert.ok(empty.every((x) => x === 0) && blank.every((x) => x === 0));
    }
  });

  test('vectors are deterministic: same text, same bits, in any batch and order', async () => {
    const again = await fast.embed([...TEXTS].reverse());
    again.reverse().forEach((v, i) => assert.deepEqual(v, fastVectors[i]));
    const reloaded = await loadEmbedder('default', { threads: 0 });
    try {
      assert.deepEqual(await reloaded.embed(TEXTS), fastVectors);
    } finally {
      await reloaded.close();
    }
  });

  test('the worker pool (big batches, then small ones) returns exactly the in-thread vectors, in order', async () => {
    const pooled = await loadEmbedder('default', { threads: 2 });
    try {
      const many = Array.from({ length: 150 }, (_, i) => `${TEXTS[i % TEXTS.length]} // variant ${i}`);
      const inThread = await fast.embed(many);
      const viaPool = await pooled.embed(many);
      assert.equal(viaPool.length, many.length);
      viaPool.forEach((v, i) => assert.deepEqual(v, inThread[i]));
      // Once the workers are up a small batch (a group's last slice) goes to them too: the same bits.
      const few = many.slice(0, 5);
      (await pooled.embed(few)).forEach((v, i) => assert.deepEqual(v, inThread[i]));
    } finally {
      await pooled.close();
    }
  });

  test('after release (workers and table given back) queries and documents embed to the same bits', { timeout: 120_000 }, async () => {
    const pooled = await loadEmbedder('default', { threads: 2 });
    try {
      const many = Array.from({ length: 150 }, (_, i) => `${TEXTS[i % TEXTS.length]} // variant ${i}`);
      const before = await pooled.embed(many);
      const query = await pooled.embedQuery('parse command line arguments');
      const withWorkers = threadCount();
      await pooled.release!();
      if (withWorkers !== null) assert.ok(threadCount()! <= withWorkers - 2, 'the two worker threads are gone');
      assert.deepEqual(await pooled.embedQuery('parse command line arguments'), query);
      (await pooled.embed(many)).forEach((v, i) => assert.deepEqual(v, before[i]));
      // A release while documents are embedding on the workers (an index run's, while a session's search embeds
      // its edits) lets that batch finish on them.
      const during = pooled.embed(many);
      await new Promise((resolve) => setTimeout(resolve, 1));
      await pooled.release!();
      (await during).forEach((v, i) => assert.deepEqual(v, before[i]));
      if (withWorkers !== null) assert.ok(threadCount()! <= withWorkers - 2, 'and the last batch on them closed them');
      await pooled.release!();
      await pooled.release!();
    } finally {
      await pooled.close();
    }
  });
});
