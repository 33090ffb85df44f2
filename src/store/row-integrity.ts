import { contentKey } from './content-key.js';

/**
 * What every stored row must satisfy, whoever wrote it (this machine's index run, an artifact, a team store): the
 * cheap checks that need neither git nor the model. They run wherever rows enter the store or the search set, so a
 * tampered or damaged row is an error with its fix, never a different answer.
 */

/**
 * How far a vector's squared norm may be from 1. Every embedder L2-normalises (embed/runtime/pooling.ts,
 * static-encoder.ts); float32 rounding of a normalised 512-d vector stays within 1e-5 of it, so 1e-3 only refuses
 * vectors nobody normalised (a garbled file gave norms near 1e29, a hostile row 1e31).
 */
const NORM_TOLERANCE = 1e-3;

/**
 * Why `dim` floats from `offset` are not a vector an embedder writes, or null: every value finite, and unit length,
 * or all zeros (what the embedders give a text with no tokens).
 */
export function vectorProblem(values: ArrayLike<number>, offset: number, dim: number): string | null {
  if (offset < 0 || offset + dim > values.length) return `has no ${dim}-d vector`;
  let sum = 0;
  for (let k = offset; k < offset + dim; k++) sum += values[k] * values[k];
  if (!Number.isFinite(sum)) return 'has a vector value that is not a finite number';
  if (sum !== 0 && Math.abs(sum - 1) > NORM_TOLERANCE) return `has a vector of length ${Math.sqrt(sum).toPrecision(3)}, not 1`;
  return null;
}

/** Why a row's content key does not name its breadcrumb and text, or null. */
export function contentKeyProblem(symbol: string, text: string, key: string): string | null {
  return contentKey(symbol, text) === key ? null : `has content key ${key.slice(0, 12)}… that does not match its breadcrumb and text`;
}
