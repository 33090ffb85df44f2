import fs from 'node:fs';
import type { StoreBackend } from '../contract.js';

/**
 * Stores as LanceDB tables in a folder. Loading LanceDB is a third of a one-shot search, and most searches never
 * open the store: the class behind this is imported only when a store is opened.
 */
export const lanceBackend: StoreBackend = {
  async open(location, dim, opts) {
    return (await import('./lance-store.js')).LanceChunkStore.open(location, dim, opts);
  },
  exists: (location) => fs.existsSync(location.tables),
  async hasTables(location) {
    return (await import('./lance-store.js')).hasTables(location);
  },
};

/**
 * The same tables on a team's object store (`s3://bucket/prefix/lance`, `file:///share/lance`), at the URI and with
 * the options its provider gave (object-stores.ts): LanceDB does the object I/O. What assumes a local folder
 * (staging and moving a store into place, clearing by removing entries, the layout marker file) is never used on
 * it: a remote is only appended to by `ocrag publish` and read by index runs.
 */
export const lanceObjectBackend: StoreBackend = {
  open: lanceBackend.open,
  // Asking costs a round trip; callers of a remote open it, and a missing table then answers for itself.
  exists: () => true,
  hasTables: lanceBackend.hasTables,
};
