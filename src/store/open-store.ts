import { OcragError } from '../util/errors.js';
import type { ChunkStore, StoreBackend } from './contract.js';
import { lanceBackend, lanceObjectBackend } from './lance/backend.js';
import type { StoreLocation } from './layout.js';
import { OBJECT_STORE_SCHEMES } from './object-schemes.js';

/**
 * The backend for each kind of location: tables in a local folder, or at a URI on a team's object store (`s3://…`,
 * `file://…`: which kinds of object storage there are is object-schemes.ts's business, not the backend's).
 */
const BACKENDS: Record<'folder' | 'objects', StoreBackend> = {
  folder: lanceBackend,
  objects: lanceObjectBackend,
};

/** `scheme://…` names a URI; anything else (`/x/.ocrag/lance`, `C:\x`) is a local folder. */
const URI = /^([a-z][a-z0-9+.-]*):\/\//i;

function backendFor(location: StoreLocation): StoreBackend {
  const scheme = URI.exec(location.tables)?.[1].toLowerCase();
  if (scheme === undefined) return BACKENDS.folder;
  const known: readonly string[] = OBJECT_STORE_SCHEMES;
  if (!known.includes(scheme)) throw new OcragError(`no store backend for "${scheme}://" locations (${location.tables}); known: ${[...new Set(['file', ...known])].join(', ')}`);
  return BACKENDS.objects;
}

/** Opens the store at this location, creating it unless `create` is false (readers: a missing table is damage). */
export async function openStore(location: StoreLocation, dim: number, opts: { create?: boolean } = {}): Promise<ChunkStore> {
  return backendFor(location).open(location, dim, opts);
}

/** Whether a store is there at all (without opening it). */
export function storeExists(location: StoreLocation): boolean {
  return backendFor(location).exists(location);
}

/** Whether every table of the store is there. */
export async function hasTables(location: StoreLocation): Promise<boolean> {
  return backendFor(location).hasTables(location);
}
