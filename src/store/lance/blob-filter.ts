import { isObjectId } from '../../git/object-id.js';
import { COLUMN } from '../chunk-columns.js';

/**
 * LanceDB `blob IN (…)` filters for these blobs, `size` ids to a filter. Anything not an object id is dropped
 * first, so no quote or other SQL ever reaches a filter.
 */
export function blobFilters(blobs: Iterable<string>, size: number): string[] {
  return inFilters(COLUMN.blob, blobs, size);
}

/** As blobFilters, over chunk ids (hex digests, as long as a SHA-1 object id). */
export function idFilters(ids: Iterable<string>, size: number): string[] {
  return inFilters(COLUMN.id, ids, size);
}

/** `content_key IN (…)` filters, as blobFilters (content keys are 40 hex digits, as object ids). */
export function keyFilters(keys: Iterable<string>, size: number): string[] {
  return inFilters(COLUMN.contentKey, keys, size);
}

function inFilters(column: string, values: Iterable<string>, size: number): string[] {
  return batchesOf([...values].filter(isObjectId), size).map((batch) => `${column} IN (${batch.map((b) => `'${b}'`).join(',')})`);
}

export function batchesOf<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
