import { OcragError } from '../util/errors.js';
import type { ChunkStore, StoreBackend } from './contract.js';
import { lanceBackend } from './lance/backend.js';
import { s3Backend } from './s3/backend.js';
import type { StoreLocation } from './layout.js';

/**
 * The backend for each kind of location, keyed by the scheme of the tables' URI (`s3://…` → "s3"); a location
 * that is no URI is a local folder, "file". A new backend is its file(s) and one line here.
 */
const BACKENDS: Record<string, StoreBackend> = {
  file: lanceBackend,
  s3: s3Backend,
};

/** `scheme://…` names a URI; anything else (`/x/.ocrag/lance`, `C:\x`) is a local folder. */
const URI = /^([a-z][a-z0-9+.-]*):\/\//i;

function backendFor(location: StoreLocation): StoreBackend {
  const scheme = URI.exec(location.tables)?.[1].toLowerCase() ?? 'file';
  const backend = Object.hasOwn(BACKENDS, scheme) ? BACKENDS[scheme] : undefined;
  if (!backend) throw new OcragError(`no store backend for "${scheme}://" locations (${location.tables}); known: ${Object.keys(BACKENDS).join(', ')}`);
  return backend;
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
