import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadEmbedder, type Embedder } from '../../src/embed/index.js';
import { KERNEL_MIN_CHUNKS } from '../../src/search/int8-dots.js';
import { queryLimbs } from '../../src/search/int8-limb-dots.js';
import { ResidentIndex } from '../../src/search/resident-index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Real chunk texts: this project's own source, a few lines at a time, enough of them for the kernel. */
function sourceTexts(count: number): string[] {
  const texts: string[] = [];
  const dirs = ['src/search', 'src/store', 'src/index', 'src/embed/runtime', 'src/git', 'src/util'].map((d) => path.join(ROOT, d));
  for (const dir of dirs) {
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
      const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
      for (let i = 0; i < lines.length && texts.length < count; i += 6) texts.push(lines.slice(i, i + 6).join('\n'));
    }
  }
  return texts;
}

const QUERIES = [
  'spawn a blocking task', 'JoinHandle::abort', 'where are vectors quantized to int8', 'read a snapshot from disk', 'git cat-file batch',
  'cosine similarity of a query', 'lock file', 'how does the index stay fresh after a commit', 'tokenize', 'x', '', '日本語のクエリ',
];

/** A resident set of the built model's vectors, with the rows' int8s and scales as it holds them. */
function residentOf(embedder: Embedder, texts: string[], vectors: Float32Array[]): ResidentIndex {
  const set = new ResidentIndex(embedder.dim);
  set.addRows(texts.map((text, i) => ({ id: `c${i}`, blob: `b${i % 211}`, startLine: 1, endLine: 6, language: 'ts', symbol: '', text, terms: '', vector: vectors[i] })));
  return set;
}

describe("int8 cosines over the built model's vectors", () => {
  let embedder: Embedder;
  let set: ResidentIndex;
  let queries: Float32Array[];
  const rows = KERNEL_MIN_CHUNKS + 77;
  before(async () => {
    embedder = await loadEmbedder('default', { onNotice: () => undefined });
    const texts = sourceTexts(rows);
    assert.equal(texts.length, rows, 'enough source to embed');
    set = residentOf(embedder, texts, await embedder.embed(texts));
    queries = await Promise.all(QUERIES.map((q) => embedder.embedQuery(q)));
  });
  after(() => embedder?.close());

  test('the kernel gives the loop its very cosines, integer and float paths alike', () => {
    const all = Int32Array.from({ length: rows }, (_, i) => (i * 389) % rows);
    let integer = 0;
    for (const [k, query] of queries.entries()) {
      if (queryLimbs(Float64Array.from(query))) integer++;
      const viaKernel = set.cosines(query, all);
      // One chunk at a time is below the kernel's threshold: the loop answers.
      const viaLoop = Float32Array.from(all, (i) => set.cosines(query, Int32Array.of(i))[0]);
      assert.deepEqual([...viaKernel], [...viaLoop], `query ${k}: ${JSON.stringify(QUERIES[k])}`);
    }
    assert.equal(typeof (set as unknown as { kernel: unknown }).kernel, 'function', 'the kernel was used');
    assert.ok(integer >= QUERIES.length / 2, `most of the model's queries take the integer path (${integer} of ${QUERIES.length})`);
    // The float path is taken by the queries the integer one refuses: one of them made so here, a component far down.
    const odd = Float32Array.from(queries[0], (x, d) => (d === 5 ? Math.fround(1e-30) : x));
    assert.equal(queryLimbs(Float64Array.from(odd)), null);
    assert.deepEqual([...set.cosines(odd, all)], [...Float32Array.from(all, (i) => set.cosines(odd, Int32Array.of(i))[0])]);
  });

  test('without WebAssembly (node --jitless) the loop answers, with the same cosines', () => {
    const all = Int32Array.from({ length: rows }, (_, i) => i);
    const want = queries.slice(0, 4).map((q) => [...set.cosines(q, all)]);
    const input = JSON.stringify({ texts: sourceTexts(rows), queries: QUERIES.slice(0, 4) });
    const script = `
      import { loadEmbedder } from ${JSON.stringify(path.join(ROOT, 'src/embed/index.ts'))};
      import { ResidentIndex } from ${JSON.stringify(path.join(ROOT, 'src/search/resident-index.ts'))};
      const { texts, queries } = JSON.parse((await import('node:fs')).readFileSync(0, 'utf8'));
      const embedder = await loadEmbedder('default', { onNotice: () => undefined, threads: 0 });
      const set = new ResidentIndex(embedder.dim);
      const vectors = await embedder.embed(texts);
      set.addRows(texts.map((text, i) => ({ id: 'c' + i, blob: 'b' + (i % 211), startLine: 1, endLine: 6, language: 'ts', symbol: '', text, terms: '', vector: vectors[i] })));
      const all = Int32Array.from({ length: texts.length }, (_, i) => i);
      const out = [];
      for (const q of queries) out.push([...set.cosines(await embedder.embedQuery(q), all)]);
      console.log(JSON.stringify({ wasm: typeof WebAssembly, kernel: set.kernel === null ? null : typeof set.kernel, out }));
      await embedder.close();
    `;
    const r = spawnSync(process.execPath, ['--jitless', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, input, encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { wasm: string; kernel: string | null; out: number[][] };
    assert.equal(got.wasm, 'undefined', 'no WebAssembly in that process');
    assert.equal(got.kernel, null, 'no kernel: the loop answered');
    assert.deepEqual(got.out, want);
  });
});
