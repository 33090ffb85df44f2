import { readFields } from '../../store/chunk-batch.js';
import { CHUNK_FIELDS } from '../../store/chunk-columns.js';
import type { ChunkBatch } from '../../store/contract.js';
import type { RowClaim } from './blob-truth.js';

/** A row from outside (an artifact, a remote store, a search-ready set) or from the local store, to be held to git. */
export interface VerifiableRow extends RowClaim {
  id: string;
  blob: string;
  /** Its search words as stored; absent where the rows carry none (a search-ready set). */
  terms?: string;
  vector: Float32Array;
  /** The vector went through an int8 copy (a search-ready set): its length and direction are that close only. */
  quantized?: boolean;
}

/** The rows of a batch of every chunk field, their vectors viewed in place. */
export function* rowsOfBatch(batch: ChunkBatch): Generator<VerifiableRow> {
  const { id, blob, startLine, endLine, language, symbol, text, terms, vector } = readFields(batch, CHUNK_FIELDS);
  for (let i = 0; i < batch.numRows; i++) yield new BatchRow(id(i), blob(i), startLine(i), endLine(i), language(i), symbol(i), text(i), vector(i), () => terms(i));
}

/** A row of a batch; its search words, as long as its text, are read only when the sample checks them. */
class BatchRow implements VerifiableRow {
  constructor(
    readonly id: string,
    readonly blob: string,
    readonly startLine: number,
    readonly endLine: number,
    readonly language: string,
    readonly symbol: string,
    readonly text: string,
    readonly vector: Float32Array,
    private readonly termsOf: () => string,
  ) {}

  get terms(): string {
    return this.termsOf();
  }
}
