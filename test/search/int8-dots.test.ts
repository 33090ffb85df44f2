import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { int8DotKernel, KERNEL_MIN_CHUNKS, vectorsBlock, vectorsInRoom } from '../../src/search/int8-dots.js';
import { limbKernelBytes, queryLimbs } from '../../src/search/int8-limb-dots.js';
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

  test('in integers, for queries like a model gives, the same sums bit for bit', () => {
    const next = random(5);
    const gauss = () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
    let integer = 0;
    for (const dim of [16, 512, 1024]) {
      const kernel = int8DotKernel(dim)!;
      const rows = 300;
      // The int8 extremes often, so the limb sums come near their bound.
      const vectors = Int8Array.from({ length: rows * dim }, (_, i) => (i % 7 === 0 ? -128 : i % 11 === 0 ? 127 : Math.floor(next() * 256) - 128));
      for (let t = 0; t < 12; t++) {
        const raw = Float32Array.from({ length: dim }, gauss);
        const norm = Math.hypot(...raw);
        // Unit length as a model gives, some coarse (few mantissa bits), some with a zero.
        const query = Float32Array.from(raw, (x, d) => (t % 4 === 3 && d === 2 ? 0 : t % 3 === 1 ? Math.round((x / norm) * 64) / 64 : x / norm));
        if (queryLimbs(Float64Array.from(query))) integer++;
        const chunks = Int32Array.from({ length: 200 }, () => Math.floor(next() * rows));
        assert.deepEqual([...kernel(Float64Array.from(query), vectors, rows, chunks)], [...plainSums(query, vectors, dim, chunks)], `dim ${dim}, query ${t}`);
      }
    }
    assert.ok(integer >= 30, `most queries take the integer path (${integer} of 36)`);
  });

  test('integers only where they give the float sums', () => {
    const unit = Float64Array.from({ length: 16 }, (_, d) => Math.fround((d % 2 ? 1 : -1) / 4));
    assert.ok(queryLimbs(unit));
    // One component far below the others: its lowest bit would need more than 2^53 units.
    assert.equal(queryLimbs(Float64Array.from(unit, (x, d) => (d === 0 ? Math.fround(1e-30) : x))), null);
    assert.equal(queryLimbs(new Float64Array(16)), null, 'all zeros');
    assert.equal(queryLimbs(Float64Array.from(unit, (x, d) => (d === 0 ? 0.1 : x))), null, 'not a float32');
    assert.equal(queryLimbs(Float64Array.from({ length: 24 }, () => 0.25)), null, 'not in sixteens');
  });

  // The float kernel answers whenever this one fails to compile, with the same sums: only this test sees the loss.
  test('the integer kernel compiles where the float one does', () => {
    assert.doesNotThrow(() => new WebAssembly.Module(limbKernelBytes()));
  });

  test('reads vectors in place where a snapshot put them, leaving the bytes around them as they were', () => {
    const next = random(13);
    const dim = 64;
    const rows = KERNEL_MIN_CHUNKS + 7;
    // As a snapshot's eager sections lie: another section, then the vectors, then one more.
    const [before, after] = [24, 40];
    const bytes = before + rows * dim + after;
    const block = vectorsBlock(bytes, rows, dim);
    assert.ok(block.byteLength > bytes, 'room after the sections for the kernel');
    const head = new Uint8Array(block, 0, before).fill(7);
    const vectors = new Int8Array(block, before, rows * dim);
    for (let i = 0; i < vectors.length; i++) vectors[i] = Math.floor(next() * 256) - 128;
    const tail = new Uint8Array(block, before + rows * dim, after).fill(9);
    const kernel = int8DotKernel(dim)!;
    // 2 * rows still fits the scratch the memory's last page leaves; 8 * rows does not, and is copied.
    for (const [n, inPlace] of [[rows & ~1, true], [2, true], [2 * rows, true], [8 * rows, false]] as const) {
      const query = Float32Array.from({ length: dim }, () => next() - 0.5);
      const chunks = Int32Array.from({ length: n }, () => Math.floor(next() * rows));
      const sums = kernel(Float64Array.from(query), vectors, rows, chunks);
      assert.deepEqual([...sums], [...plainSums(query, vectors, dim, chunks)], `${n} chunks`);
      // The sums lie in the memory the kernel ran over: the snapshot's own where its scratch holds them (not a copy).
      assert.equal(sums.buffer === block, inPlace, `${n} chunks: ${inPlace ? 'in place' : 'more than the scratch holds, copied'}`);
      assert.equal(vectors.buffer, block, 'the memory never grew: every section still reads its bytes');
    }
    assert.ok(head.every((b) => b === 7) && tail.every((b) => b === 9), 'the other sections are untouched');
    assert.equal(vectorsBlock(bytes, 10, dim).byteLength, bytes, 'a set too small for the kernel gets a plain buffer');
    assert.equal(vectorsBlock(bytes, 1e12, dim).byteLength, bytes, 'a count no memory holds: a plain buffer');
  });

  test('rows appended to restored vectors go into the room left after them, and the kernel reads them there too', () => {
    const next = random(17);
    const dim = 64;
    const [rows, room, before] = [KERNEL_MIN_CHUNKS + 3, 40, 24];
    // As a snapshot read with its vectors last: another section, then the vectors, ending where the bytes end.
    const bytes = before + rows * dim;
    const block = vectorsBlock(bytes, rows, dim, room);
    const head = new Uint8Array(block, 0, before).fill(7);
    const restored = new Int8Array(block, before, rows * dim);
    for (let i = 0; i < restored.length; i++) restored[i] = Math.floor(next() * 256) - 128;
    const vectors = vectorsInRoom(restored, dim)!;
    assert.ok(vectors && vectors.buffer === block && vectors.byteOffset === before, 'the same bytes, viewed further');
    assert.ok(vectors.length >= (rows + room) * dim && vectors.length % dim === 0);
    assert.equal(vectorsInRoom(vectors, dim), null, 'no room past the room');
    for (let i = rows * dim; i < (rows + room) * dim; i++) vectors[i] = Math.floor(next() * 256) - 128;
    const kernel = int8DotKernel(dim)!;
    const chunks = Int32Array.from({ length: (rows + room) & ~1 }, (_, j) => (j * 7) % (rows + room));
    const query = Float32Array.from({ length: dim }, () => next() - 0.5);
    const sums = kernel(Float64Array.from(query), vectors, rows + room, chunks);
    assert.deepEqual([...sums], [...plainSums(query, vectors, dim, chunks)]);
    assert.equal(sums.buffer, block, 'in place, appended rows and all: nothing copied');
    assert.ok(head.every((b) => b === 7), 'the section before is untouched');
    assert.equal(vectorsInRoom(new Int8Array(block, 0, before), dim), null, 'a view that does not end where the bytes do has no room');
    assert.equal(vectorsInRoom(restored.slice(), dim), null, 'a copy has none');
    assert.equal(vectorsInRoom(new Int8Array(vectorsBlock(bytes, 10, dim, room), before, 10 * dim), dim), null, 'nor vectors in a plain buffer');
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
