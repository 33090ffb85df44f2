import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quantize } from '../../src/search/quantize.js';

/** The quantizing every snapshot so far was written with. */
function reference(vector: Float32Array): { vector: Int8Array; scale: number } {
  let max = 0;
  for (const v of vector) max = Math.max(max, Math.abs(v));
  const scale = max / 127 || 1;
  return { vector: Int8Array.from(vector, (v) => Math.round(v / scale)), scale };
}

test('quantize rounds as Math.round did, halves, NaN, infinities and huge components included', () => {
  let seed = 7;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const vectors: Float32Array[] = [];
  for (let i = 0; i < 2000; i++) vectors.push(Float32Array.from({ length: 64 }, () => random() - 0.5));
  // Components whose quotient by the scale is exactly or nearly a half, or beyond 2^52 (a NaN leaves scale 1).
  vectors.push(Float32Array.from([127, 0.5, -0.5, 1.5, -2.5, 126.5, -126.5, 0.49999997, -0.49999997]));
  vectors.push(Float32Array.from([NaN, 2 ** 60, -(2 ** 60), 2 ** 52 + 2, 4503599627370495.5, 0.5, -0.5, 3.5]));
  vectors.push(Float32Array.from([Infinity, 1, -1]), Float32Array.from([0, 0, -0]), Float32Array.from([]));
  for (const v of vectors) assert.deepEqual(quantize(v), reference(v));
});
