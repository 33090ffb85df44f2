import { readFields, utf8BytesOf } from '../../store/chunk-batch.js';
import { keysOfBytes } from '../../store/content-key.js';
import type { ChunkBatch } from '../../store/contract.js';

/** What each row of a batch (with its symbol, text and terms) says, as rowSays (row-problem.ts), hashed from the bytes it holds. */
export function rowSaysOfBatch(batch: ChunkBatch): (row: number) => string {
  const { symbol, text, terms } = readFields(batch, ['symbol', 'text', 'terms']);
  return keysOfBytes([utf8BytesOf(batch, 'symbol'), utf8BytesOf(batch, 'terms'), utf8BytesOf(batch, 'text')], (row) => [symbol(row), terms(row), text(row)]);
}
