import { utf8BytesOf, readFields } from '../../store/chunk-batch.js';
import { keysOfBytes } from '../../store/content-key.js';
import type { ChunkBatch } from '../../store/contract.js';

/**
 * What each row of a batch (with its content key and terms) says, as rowSays (row-problem.ts), hashed from the bytes
 * it holds: its key names its breadcrumb and text, so no text is read (a store's key is its text's, held so by every
 * read that carries both, store/batch-integrity.ts).
 */
export function rowSaysOfBatch(batch: ChunkBatch): (row: number) => string {
  const { contentKey, terms } = readFields(batch, ['contentKey', 'terms']);
  return keysOfBytes([utf8BytesOf(batch, 'contentKey'), utf8BytesOf(batch, 'terms')], (row) => [contentKey(row), terms(row)]);
}
