import type { StoreBackend } from '../contract.js';

/**
 * Stores as LanceDB tables on S3 or a compatible server (`s3://bucket/prefix/lance`), with the AWS settings of
 * s3/settings.ts: the same tables and code as a local store, LanceDB doing the object I/O. What assumes a local
 * folder (staging and moving a store into place, clearing by removing entries, the layout marker file) is never
 * used on it: a remote is only appended to by `ocrag publish` and read by index runs.
 */
export const s3Backend: StoreBackend = {
  async open(location, dim, opts) {
    return (await import('../lance/lance-store.js')).LanceChunkStore.open(location, dim, opts);
  },
  // Asking costs a round trip; callers of a remote open it, and a missing table then answers for itself.
  exists: () => true,
  async hasTables(location) {
    return (await import('../lance/lance-store.js')).hasTables(location.tables);
  },
};
