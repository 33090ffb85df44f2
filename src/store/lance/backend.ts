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
    return (await import('./lance-store.js')).hasTables(location.tables);
  },
};
