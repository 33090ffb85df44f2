/** Columns of a stored chunk an answer shows (no vector, no search words). */
const INFO_COLUMNS = ['id', 'blob', 'start_line', 'end_line', 'language', 'symbol', 'text'];
/** Every stored column of a chunk, in schema order. Apart from the store so reading them needs no LanceDB. */
export const CHUNK_COLUMNS = [...INFO_COLUMNS, 'terms', 'vector'];
