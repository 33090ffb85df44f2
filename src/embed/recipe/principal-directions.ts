/** Dominant directions are estimated from every 4th row: the same answer at a quarter of the cost. */
const ROW_STRIDE = 4;
const ITERATIONS = 30;

/**
 * Top principal directions of a set of unit rows, by subspace iteration on their dim×dim second-
 * moment matrix. Deterministic: fixed starting basis, fixed iteration count, float64 sums in order.
 */
export function principalDirections(table: Float32Array, dim: number, rows: number[], count: number): Float64Array[] {
  const moments = secondMoments(table, dim, rows.filter((_, i) => i % ROW_STRIDE === 0));
  let basis = Array.from({ length: count }, (_, j) => startVector(dim, j));
  orthonormalise(basis);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    basis = multiplyAll(moments, basis, dim);
    orthonormalise(basis);
  }
  return basis;
}

/** Subtracts each row's component along `directions` (orthonormal), in place. */
export function projectOut(table: Float32Array, dim: number, rows: number[], directions: Float64Array[]): void {
  for (const id of rows) {
    const row = table.subarray(id * dim, (id + 1) * dim);
    for (const direction of directions) {
      let dot = 0;
      for (let d = 0; d < dim; d++) dot += row[d] * direction[d];
      for (let d = 0; d < dim; d++) row[d] -= dot * direction[d];
    }
  }
}

function secondMoments(table: Float32Array, dim: number, rows: number[]): Float64Array {
  const m = new Float64Array(dim * dim);
  const row = new Float64Array(dim);
  for (const id of rows) {
    for (let d = 0; d < dim; d++) row[d] = table[id * dim + d];
    for (let a = 0; a < dim; a++) {
      const x = row[a];
      const offset = a * dim;
      for (let b = a; b < dim; b++) m[offset + b] += x * row[b];
    }
  }
  for (let a = 0; a < dim; a++) for (let b = 0; b < a; b++) m[a * dim + b] = m[b * dim + a];
  return m;
}

/** matrix·v for every v, reading the (symmetric) matrix once rather than once per vector. */
function multiplyAll(matrix: Float64Array, vectors: Float64Array[], dim: number): Float64Array[] {
  const out = vectors.map(() => new Float64Array(dim));
  for (let a = 0; a < dim; a++) {
    const row = matrix.subarray(a * dim, (a + 1) * dim);
    for (let j = 0; j < vectors.length; j++) {
      const v = vectors[j];
      let sum = 0;
      for (let b = 0; b < dim; b++) sum += row[b] * v[b];
      out[j][a] = sum;
    }
  }
  return out;
}

function orthonormalise(basis: Float64Array[]): void {
  basis.forEach((v, j) => {
    for (let i = 0; i < j; i++) {
      let dot = 0;
      for (let d = 0; d < v.length; d++) dot += v[d] * basis[i][d];
      for (let d = 0; d < v.length; d++) v[d] -= dot * basis[i][d];
    }
    const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
    for (let d = 0; d < v.length; d++) v[d] /= norm;
  });
}

/** A fixed pseudo-random vector (LCG), so no start vector is accidentally orthogonal to the answer. */
function startVector(dim: number, seed: number): Float64Array {
  let state = (seed + 1) * 2654435761;
  return Float64Array.from({ length: dim }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  });
}
