import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, test } from 'node:test';
import { freshCacheWithDefaultModel } from './helpers.js';

const EMBED_INDEX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/embed/index.ts');

/** Loads a model in a fresh process and reports what got loaded: a search must start fast. */
function probe(cache: string, backend: 'auto' | 'pipeline'): { onnxruntime: string[]; dim: number } {
  const script = `
    const { loadEmbedder } = await import(${JSON.stringify(EMBED_INDEX)});
    const embedder = await loadEmbedder('default', { backend: '${backend}', threads: 0 });
    const v = await embedder.embedQuery('parse command line arguments');
    await embedder.close();
    const onnxruntime = process.report.getReport().sharedObjects.filter((s) => /onnxruntime/i.test(s));
    console.log(JSON.stringify({ onnxruntime, dim: v.length }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, OCRAG_CACHE: cache },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe('process start-up cost of each path', () => {
  let cache: string;
  before(async () => {
    cache = await freshCacheWithDefaultModel();
  });

  test('the static fast path never loads Transformers.js or onnxruntime', () => {
    const result = probe(cache, 'auto');
    assert.equal(result.dim, 512);
    assert.deepEqual(result.onnxruntime, []);
  });

  test('(the check works: the pipeline path does load onnxruntime)', () => {
    assert.ok(probe(cache, 'pipeline').onnxruntime.length > 0);
  });
});
