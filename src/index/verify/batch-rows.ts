import type { ChunkBatch } from '../../store/contract.js';
import type { RowClaim } from './blob-truth.js';
import { COLUMN } from '../../store/chunk-columns.js';

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

/** The rows of a batch of the store's chunk columns, their vectors viewed in place. */
export function* rowsOfBatch(batch: ChunkBatch, dim: number): Generator<VerifiableRow> {
  const [ids, blobs, languages, symbols, texts, terms] = [COLUMN.id, COLUMN.blob, COLUMN.language, COLUMN.symbol, COLUMN.text, COLUMN.terms].map((name) => stringsOf(batch, name));
  const [starts, ends] = [COLUMN.startLine, COLUMN.endLine].map((name) => batch.getChild(name)!.data[0].values as Int32Array);
  const list = batch.getChild(COLUMN.vector)!.data[0];
  const flat = list.children[0].values as Float32Array;
  const offset = list.children[0].offset + list.offset * dim;
  for (let i = 0; i < batch.numRows; i++) {
    const vector = flat.subarray(offset + i * dim, offset + (i + 1) * dim);
    yield new BatchRow(ids(i), blobs(i), starts[i], ends[i], languages(i), symbols(i), texts(i), vector, () => terms(i));
  }
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

/** A string column read straight from its bytes: Arrow's own accessor decodes through a TextDecoder per value, 4× slower. */
function stringsOf(batch: ChunkBatch, name: string): (i: number) => string {
  const data = batch.getChild(name)!.data[0];
  const offsets = data.valueOffsets as Int32Array;
  const values = data.values as Uint8Array;
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  return (i) => bytes.toString('utf8', offsets[i], offsets[i + 1]);
}
