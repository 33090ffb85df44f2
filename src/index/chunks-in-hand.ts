import type { HeldChunks } from '../search/resident.js';
import { quantize } from '../search/quantize.js';
import type { BlobMark, ChunkBatch, ChunkInfo, ChunkReader, ChunkToAdd } from '../store/contract.js';
import { readFields } from '../store/chunk-batch.js';
import { CHUNK_FIELDS } from '../store/chunk-columns.js';
import { LARGE_VIEW_CHUNKS } from '../store/large-store.js';

/** A stored row as an index run has it: its content key, and its vector and words when this run embedded them. */
type RunRow = ChunkToAdd & { key: string };

type Content = { vector: Int8Array; scale: number; terms: string };

/**
 * The chunks an index run stored, kept as it stores them so the search set after the run is built from them
 * instead of being read back from LanceDB (issue 31: on tokio's 851 files that read made the first search 2.0 s
 * of CPU slower). Kept in the order they were stored, which is the order a search reading them back would see.
 * A run of more chunks than a search holds in memory (LARGE_VIEW_CHUNKS) keeps none: that tree is searched
 * through the store's indexes.
 */
export class ChunksInHand {
  private rows: (ChunkInfo & { key: string })[] = [];
  /**
   * Content key → vector (in int8, as the search set holds it: a quarter of the float's memory) and words, for
   * rows whose content this run embedded.
   */
  private readonly contents = new Map<string, Content>();
  private empty: string[] = [];
  /** Whole batches the store took (an import's, a read-through's copy), ahead of `rows` in the store: read when resolved. */
  private batches: ChunkBatch[] = [];
  private batchRows = 0;
  private dropped = false;

  constructor(private readonly limit = LARGE_VIEW_CHUNKS) {}

  /** Hears each group of rows once the store has them. */
  readonly stored = (rows: RunRow[]): void => {
    if (this.dropped) return;
    if (this.batchRows + this.rows.length + rows.length > this.limit) return this.drop();
    for (const row of rows) {
      if (row.vector && row.terms !== undefined && !this.contents.has(row.key)) this.contents.set(row.key, { ...quantize(row.vector), terms: row.terms });
      const { id, blob, startLine, endLine, language, symbol, text, key } = row;
      this.rows.push({ id, blob, startLine, endLine, language, symbol, text, key });
    }
  };

  /**
   * Hears batches with every chunk column once the store has them, into a store that held nothing before (an
   * import's, a read-through's copy), before any row `stored` hears. Kept as they are, and read when resolved.
   */
  readonly storedBatches = (batches: ChunkBatch[]): void => {
    if (this.dropped) return;
    const rows = batches.reduce((n, b) => n + b.numRows, 0);
    if (this.batchRows + this.rows.length + rows > this.limit) return this.drop();
    this.batches.push(...batches);
    this.batchRows += rows;
  };

  /** Hears the blobs the run found to hold no chunks. */
  marked(marks: Iterable<Pick<BlobMark, 'blob'>>): void {
    if (!this.dropped) for (const m of marks) this.empty.push(m.blob);
  }

  /** Keeps nothing: what the run stored is not all the search set should take from it in this order (a read-through's rows came first). */
  drop(): void {
    this.dropped = true;
    this.rows = [];
    this.contents.clear();
    this.empty = [];
    this.batches = [];
    this.batchRows = 0;
  }

  /** Whether there is anything to build a search set from. */
  get any(): boolean {
    return this.batchRows > 0 || this.rows.length > 0 || this.empty.length > 0;
  }

  /**
   * Every row with its vector and words: those this run embedded from it, those whose content the store had
   * before the run from the store (a commit's unchanged functions: a look-up of a few contents).
   */
  async resolve(store: ChunkReader): Promise<HeldChunks> {
    const unknown = new Set(this.rows.filter((r) => !this.contents.has(r.key)).map((r) => r.key));
    const looked = new Map<string, Content>();
    if (unknown.size) for (const [key, { vector, terms }] of await store.contentVectors(unknown)) looked.set(key, { ...quantize(vector), terms });
    const rows: HeldChunks['rows'] = [];
    for (const r of this.rows) {
      const content = this.contents.get(r.key) ?? looked.get(r.key);
      // Gone meanwhile (a gc between): the search set reads that blob from the store.
      if (!content) continue;
      // Text as the store gives it back: UTF-8 keeps no lone surrogate.
      rows.push({ id: r.id, blob: r.blob, startLine: r.startLine, endLine: r.endLine, language: r.language, symbol: wellFormed(r.symbol), text: wellFormed(r.text), ...content });
    }
    const missing = new Set(this.rows.filter((r) => !this.contents.has(r.key) && !looked.has(r.key)).map((r) => r.blob));
    const batched = this.batches.length ? await inStoreOrder(this.batches, store) : [];
    return { rows: [...batched, ...rows.filter((r) => !missing.has(r.blob))], empty: this.empty };
  }
}

/**
 * The batches' rows in the order the store gives them back, which is the order a search reading them sees: an
 * import writes two batches at once (share/chunk-writer.ts), so the order it heard them in may not be the store's.
 * Only the references' ids and blobs are read (tokio's 14,600: a few ms, against ~2 s of CPU reading whole rows).
 * A blob of which the store holds a row not in hand is left out: a search reads it from the store.
 */
async function inStoreOrder(batches: ChunkBatch[], store: ChunkReader): Promise<HeldChunks['rows']> {
  const byId = new Map<string, { batch: ChunkBatch; row: number }>();
  const blobs = new Set<string>();
  for (const batch of batches) {
    const { id, blob } = readFields(batch, ['id', 'blob']);
    for (let row = 0; row < batch.numRows; row++) {
      if (!byId.has(id(row))) byId.set(id(row), { batch, row });
      blobs.add(blob(row));
    }
  }
  const order: { batch: ChunkBatch; row: number }[] = [];
  const partial = new Set<string>();
  // Every reference, in one scan: a read of some blobs' goes a group of blobs at a time, not in the store's order.
  for await (const refs of store.chunkColumns(null, ['id', 'blob'])) {
    const { id, blob } = readFields(refs, ['id', 'blob']);
    for (let r = 0; r < refs.numRows; r++) {
      if (!blobs.has(blob(r))) continue;
      const held = byId.get(id(r));
      if (held) order.push(held);
      else partial.add(blob(r));
    }
  }
  const readers = new Map<ChunkBatch, ReturnType<typeof readFields<(typeof CHUNK_FIELDS)[number]>>>();
  const rows: HeldChunks['rows'] = [];
  for (const { batch, row } of order) {
    let fields = readers.get(batch);
    if (!fields) readers.set(batch, (fields = readFields(batch, CHUNK_FIELDS)));
    const blob = fields.blob(row);
    if (partial.has(blob)) continue;
    const { vector, scale } = quantize(fields.vector(row));
    rows.push({ id: fields.id(row), blob, startLine: fields.startLine(row), endLine: fields.endLine(row), language: fields.language(row), symbol: fields.symbol(row), text: fields.text(row), terms: fields.terms(row), vector, scale });
  }
  return rows;
}

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** The string as UTF-8 gives it back (a lone surrogate becomes U+FFFD). */
function wellFormed(s: string): string {
  return LONE_SURROGATE.test(s) ? Buffer.from(s, 'utf8').toString('utf8') : s;
}
