import type { PoolingMode } from '../models/model-layout.js';

/** Token vectors of a padded batch, [batch, sequence, dim] row-major, and its attention mask [batch, sequence]. */
export interface TokenStates {
  data: Float32Array;
  dims: readonly [batch: number, sequence: number, dim: number];
  mask: ArrayLike<number | bigint>;
}

/**
 * One L2-normalised vector per row. Only positions the mask keeps count, so left and right padding
 * give the same result: "cls" is the first kept token, "lasttoken" the last kept one (Transformers.js's
 * own pooling takes position -1, a pad token for every shorter row of a right-padded batch).
 * A row with no kept token, or whose vector is zero or not finite, comes out as zeros.
 */
export function poolAndNormalise(states: TokenStates, mode: PoolingMode): Float32Array[] {
  const [batch, sequence, dim] = states.dims;
  const vectors: Float32Array[] = [];
  for (let row = 0; row < batch; row++) {
    const kept: number[] = [];
    for (let t = 0; t < sequence; t++) if (Number(states.mask[row * sequence + t]) !== 0) kept.push(t);
    const at = (t: number) => (row * sequence + t) * dim;
    const out = new Float32Array(dim);
    if (kept.length > 0) {
      if (mode === 'cls' || mode === 'lasttoken') {
        const start = at(mode === 'cls' ? kept[0] : kept[kept.length - 1]);
        out.set(states.data.subarray(start, start + dim));
      } else if (mode === 'max') {
        out.fill(-Infinity);
        for (const t of kept) for (let d = 0, i = at(t); d < dim; d++, i++) if (states.data[i] > out[d]) out[d] = states.data[i];
      } else {
        // A mean's direction is its sum's (dividing by the count would be undone by normalising), summed in doubles.
        const sum = new Float64Array(dim);
        for (const t of kept) for (let d = 0, i = at(t); d < dim; d++, i++) sum[d] += states.data[i];
        out.set(sum);
      }
    }
    vectors.push(normalised(out));
  }
  return vectors;
}

function normalised(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm === 0 || !Number.isFinite(norm)) return vector.fill(0);
  for (let d = 0; d < vector.length; d++) vector[d] /= norm;
  return vector;
}
