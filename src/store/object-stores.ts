import path from 'node:path';
import { OcragError } from '../util/errors.js';
import { folderProvider } from './folder-objects.js';
import type { ObjectStore, ObjectStoreProvider } from './object-store.js';
import type { ObjectStoreScheme } from './object-schemes.js';
import { s3Provider } from './s3/objects.js';

/**
 * The kinds of object storage a remote (or an artifact's URL) may be on, by the scheme of its URL; an absolute
 * path is a folder. A new kind is its file, exporting an ObjectStoreProvider, its scheme in object-schemes.ts and one
 * line here.
 */
const PROVIDERS: Record<ObjectStoreScheme, ObjectStoreProvider> = {
  s3: s3Provider,
  file: folderProvider,
};

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

function providerFor(url: string): ObjectStoreProvider | undefined {
  const scheme = SCHEME.exec(url)?.[1].toLowerCase() ?? (path.isAbsolute(url) ? 'file' : '');
  return Object.hasOwn(PROVIDERS, scheme) ? PROVIDERS[scheme as ObjectStoreScheme] : undefined;
}

/** The object store rooted at this URL. */
export function openObjectStore(url: string): ObjectStore {
  const provider = providerFor(url);
  if (!provider) throw new OcragError(`remote "${url}" is not supported: expected ${Object.values(PROVIDERS).map((p) => p.example).join(', or ')}`);
  return provider.open(url);
}

/** Whether this is the URL (not a bare path) of an object on a kind of object storage ocrag reads. */
export function isObjectUrl(url: string): boolean {
  return SCHEME.test(url) && providerFor(url) !== undefined;
}
