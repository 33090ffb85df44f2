/**
 * The stored columns of a chunk, and of a blob's mark, named once: the store's adapter and the typed accessors
 * of chunk-batch.ts spell them from here, and code outside store/ asks for a chunk's fields by ChunkField (the
 * names ChunkRow gives them), never by the stored name. Apart from the store, so reading them needs no LanceDB.
 */
export const COLUMN = {
  id: 'id',
  blob: 'blob',
  startLine: 'start_line',
  endLine: 'end_line',
  language: 'language',
  symbol: 'symbol',
  text: 'text',
  /** The words search finds a content by. */
  terms: 'terms',
  vector: 'vector',
  /** A content's key (content-key.ts), which a chunk reference names its content by. */
  contentKey: 'content_key',
  /** A mark's reason: why a blob yields no chunks. */
  reason: 'reason',
} as const;

/** A chunk's fields that its reference holds (its place), and those of its content, shared by chunks alike. */
export const REF_FIELDS = ['id', 'blob', 'startLine', 'endLine', 'language'] as const;
export const CONTENT_FIELDS = ['symbol', 'text', 'terms', 'vector'] as const;
/** Every field of a stored chunk, as ChunkRow (contract.ts) names it, in schema order. */
export const CHUNK_FIELDS = [...REF_FIELDS, ...CONTENT_FIELDS] as const;
/**
 * What a read may ask of a chunk: its fields, and the key of its content, which names its breadcrumb and text in
 * 40 characters (a reference holds it: no content is read for it).
 */
export type ChunkField = (typeof CHUNK_FIELDS)[number] | 'contentKey';

/** Every stored column of a chunk, in schema order. */
export const CHUNK_COLUMNS: string[] = CHUNK_FIELDS.map((f) => COLUMN[f]);

/** The stored columns of these fields, in this order. */
export function columnsOf(fields: readonly ChunkField[]): string[] {
  return fields.map((f) => COLUMN[f]);
}
