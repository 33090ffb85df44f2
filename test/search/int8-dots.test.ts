import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { int8DotKernel, KERNEL_MIN_CHUNKS } from '../../src/search/int8-dots.js';
import { topEntries, topOfLists } from '../../src/search/lexical.js';
import { ResidentIndex } from '../../src/search/resident-index.js';

/** A seeded generator, so a failure can be run again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** The loop the kernel stands in for, written out as resident-index.ts had it. */
function plainSums(query: Float32Array, vectors: Int8Array, dim: number, chunks: Int32Array): Float64Array {
  const out = new Float64Array(chunks.length);
  for (let j = 0; j < chunks.length; j++) {
    const base = chunks[j] * dim;
    let [s0, s1, s2, s3] = [0, 0, 0, 0];
    for (let d = 0; d < dim; d += 4) {
      s0 += vectors[base + d] * query[d];
      s1 += vectors[base + d + 1] * query[d + 1];
      s2 += vectors[base + d + 2] * query[d + 2];
      s3 += vectors[base + d + 3] * query[d + 3];
    }
    out[j] = s0 + s1 + s2 + s3;
  }
  return out;
}

describe('int8 dot products in WebAssembly', () => {
  test('give bit for bit the sums of the JavaScript loop, across growth and query scales', () => {
    const next = random(7);
    for (const dim of [8, 64, 512]) {
      const kernel = int8DotKernel(dim);
      assert.ok(kernel, 'WebAssembly SIMD is available on Node 20');
      let vectors = new Int8Array(0);
      for (const rows of [3, 40, 41, 300]) {
        // Rows are appended: the kernel copies only the new ones into its memory, and a new array afresh.
        const grown = new Int8Array(rows * dim);
        grown.set(vectors);
        for (let i = vectors.length; i < grown.length; i++) grown[i] = Math.floor(next() * 256) - 128;
        vectors = grown;
        for (const scale of [1e-6, 1, 1e6]) {
          const query = Float32Array.from({ length: dim }, () => (next() - 0.5) * scale * Math.exp(next() * 8 - 4));
          const chunks = Int32Array.from({ length: rows & ~1 }, () => Math.floor(next() * rows));
          const got = kernel(Float64Array.from(query), vectors, rows, chunks);
          const want = plainSums(query, vectors, dim, chunks);
          assert.deepEqual([...got].map((x) => Object.is(x, -0) ? '-0' : x), [...want].map((x) => Object.is(x, -0) ? '-0' : x), `dim ${dim}, ${rows} rows, scale ${scale}`);
        }
      }
    }
  });

  test('no kernel for a dimension it cannot take in eights', () => {
    assert.equal(int8DotKernel(12), null);
  });

  test('a resident set answers the same cosines through it as through the loop, an odd count included', () => {
    const next = random(11);
    const dim = 64;
    const set = new ResidentIndex(dim);
    const rows = KERNEL_MIN_CHUNKS + 101;
    set.addRows(
      Array.from({ length: rows }, (_, i) => ({
        id: `c${i}`, blob: `b${i % 97}`, startLine: 1, endLine: 2, language: 'ts', symbol: '', text: `x${i}`, terms: '',
        vector: Float32Array.from({ length: dim }, () => next() - 0.5),
      })),
    );
    const query = Float32Array.from({ length: dim }, () => next() - 0.5);
    const all = Int32Array.from({ length: rows }, (_, i) => rows - 1 - i);
    const viaKernel = set.cosines(query, all);
    assert.equal(typeof (set as unknown as { kernel: unknown }).kernel, 'function', 'a view this large goes through the kernel');
    // One chunk at a time is below the kernel's threshold: the loop answers.
    const viaLoop = Float32Array.from(all, (i) => set.cosines(query, Int32Array.of(i))[0]);
    assert.deepEqual([...viaKernel], [...viaLoop]);
  });
});

describe('topOfLists and topEntries of a map', () => {
  test('is topEntries over the same pairs, ties broken by the lower index', () => {
    const next = random(3);
    for (const n of [0, 1, 5, 100, 2000]) {
      const indices = Int32Array.from({ length: 1500 }, () => Math.floor(next() * 3000));
      // Few distinct scores: many ties.
      const scores = Float32Array.from({ length: 1500 }, () => Math.round(next() * 20) / 20);
      const pairs = [...indices].map((index, j) => [index, scores[j]] as [number, number]);
      assert.deepEqual(topOfLists(indices, scores, n), topEntries(pairs, n));
      // A map (a query's word scores) is read in its own order, each index once.
      const byIndex = new Map(pairs);
      assert.deepEqual(topEntries(byIndex, n), topEntries([...byIndex], n));
    }
  });
});
