/**
 * The stored columns of a chunk, and of a blob's mark, named once: every reader and writer of Arrow batches (the
 * store's adapter, search's resident set, index runs, artifacts) spells them from here. Apart from the store, so
 * reading them needs no LanceDB.
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

/** Columns of a stored chunk an answer shows (no vector, no search words). */
const INFO_COLUMNS: string[] = [COLUMN.id, COLUMN.blob, COLUMN.startLine, COLUMN.endLine, COLUMN.language, COLUMN.symbol, COLUMN.text];
/** Every stored column of a chunk, in schema order. */
export const CHUNK_COLUMNS: string[] = [...INFO_COLUMNS, COLUMN.terms, COLUMN.vector];
