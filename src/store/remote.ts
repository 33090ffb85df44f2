import { createHash } from 'node:crypto';
import path from 'node:path';
import { ArtifactError, RemoteUnavailableError } from '../util/errors.js';
import type { IndexIdentity } from './identity.js';
import type { IndexLayout, StoreLocation } from './layout.js';
import type { Manifest } from './manifest.js';
import type { ObjectStore } from './object-store.js';
import { openObjectStore } from './object-stores.js';

/**
 * A team's store on object storage (config `remote`, e.g. `s3://bucket/prefix` or a folder, see object-stores.ts):
 * LanceDB tables under `<prefix>/lance` that CI appends to (`ocrag publish`) and every clone reads through, the
 * identity every vector in them comes from (`identity.json`), one small manifest per repository and published ref
 * (`manifests/<repository>/<key>.json`) and the publishers' lease (`publish.lease`, lease.ts).
 */
export interface RemoteStore {
  uri: string;
  objects: ObjectStore;
  /** The tables, for openStore; the write lock is this machine's (the lease orders machines). */
  location: StoreLocation;
}

const IDENTITY_KEY = 'identity.json';
const IDENTITY_FORMAT = 'ocrag-remote-store';

interface RemoteIdentityFile extends IndexIdentity {
  format: typeof IDENTITY_FORMAT;
  version: 1;
  createdAt: string;
}

export function openRemote(uri: string, layout: Pick<IndexLayout, 'dir'>): RemoteStore {
  const objects = openObjectStore(uri);
  const tables = objects.tables('lance');
  // Never created: nothing builds a large view's indexes on the remote (clones search their own copy).
  const location = { tables: tables.uri, storageOptions: tables.storageOptions, writeLock: path.join(layout.dir, 'remote-write.lock'), searchIndexes: path.join(layout.dir, 'remote-search-indexes.json') };
  return { uri: objects.shown(), objects, location };
}

/** The remote's identity, or null when nothing was ever published there. A record ocrag did not write is refused. */
export async function readRemoteIdentity(remote: RemoteStore): Promise<IndexIdentity | null> {
  const bytes = await remote.objects.get(IDENTITY_KEY);
  if (!bytes) return null;
  let file: Partial<RemoteIdentityFile>;
  try {
    file = JSON.parse(bytes.toString('utf8')) as Partial<RemoteIdentityFile>;
  } catch {
    throw new ArtifactError(`the remote store ${remote.uri} is not usable: ${IDENTITY_KEY} is not JSON`);
  }
  if (file.format !== IDENTITY_FORMAT || typeof file.modelId !== 'string' || typeof file.chunkerVersion !== 'string' || !Number.isInteger(file.dim) || file.dim! <= 0) {
    throw new ArtifactError(`the remote store ${remote.uri} is not usable: ${IDENTITY_KEY} is not an ocrag remote store's identity`);
  }
  return { modelId: file.modelId, dim: file.dim!, chunkerVersion: file.chunkerVersion };
}

export async function writeRemoteIdentity(remote: RemoteStore, identity: IndexIdentity): Promise<void> {
  const file: RemoteIdentityFile = { format: IDENTITY_FORMAT, version: 1, ...identity, createdAt: new Date().toISOString() };
  await remote.objects.put(IDENTITY_KEY, JSON.stringify(file, null, 2) + '\n');
}

/** A remote of another model, vector size or chunker is refused as a foreign artifact is: its chunks are not this ocrag's. */
export function assertRemoteIdentity(remote: RemoteStore, theirs: IndexIdentity, ours: IndexIdentity): void {
  const differs = (['modelId', 'dim', 'chunkerVersion'] as const).filter((k) => theirs[k] !== ours[k]);
  if (differs.length === 0) return;
  const say = (i: IndexIdentity) => `model ${i.modelId} (${i.dim}-d), chunker ${i.chunkerVersion}`;
  throw new ArtifactError(`the remote store ${remote.uri} holds ${say(theirs)}, this ocrag makes ${say(ours)}: refused (publish to another prefix for this model and ocrag version)`);
}

/**
 * A published ref's manifest (the local manifest as it is: paths → blobs, commit, tree, identity), under the
 * repository's own folder (`manifests/<repository>/<key>.json`): two repositories sharing a prefix never
 * overwrite each other's `branch-main`.
 */
export async function writeRemoteManifest(remote: RemoteStore, repository: string, key: string, manifest: Manifest): Promise<void> {
  await remote.objects.put(remoteManifestKey(repository, key), JSON.stringify(manifest) + '\n');
}

export function remoteManifestKey(repository: string, key: string): string {
  return `manifests/${repository}/${key}.json`;
}

/**
 * A published commit's search-ready set: the resident snapshot (search/resident-snapshot.ts) of exactly its
 * tree's chunks, stored by its sha256 (`search/<sha256>.snap`) and named per commit (`search/<commit>.json`), so a
 * fresh clone of that commit restores it instead of building it from the chunks it just copied.
 */
export interface RemoteSearchSet {
  format: typeof SEARCH_SET_FORMAT;
  commit: string;
  sha256: string;
  bytes: number;
  chunks: number;
  modelId: string;
  dim: number;
  chunkerVersion: string;
}

const SEARCH_SET_FORMAT = 'ocrag-search-set';

export async function writeRemoteSearchSet(remote: RemoteStore, set: Omit<RemoteSearchSet, 'format' | 'sha256' | 'bytes'>, body: Buffer): Promise<RemoteSearchSet> {
  const record: RemoteSearchSet = { format: SEARCH_SET_FORMAT, ...set, sha256: createHash('sha256').update(body).digest('hex'), bytes: body.length };
  // The body first: a record is never seen before what it names.
  await remote.objects.put(`search/${record.sha256}.snap`, body);
  await remote.objects.put(`search/${set.commit}.json`, JSON.stringify(record, null, 2) + '\n');
  return record;
}

/**
 * The search-ready set published for this commit and identity, its bytes checked against the sha256 its record
 * names; null when there is none, or it is of another identity, or its bytes do not match (the clone builds its
 * own then). Remote failures are thrown, for the caller to say.
 */
export async function readRemoteSearchSet(remote: RemoteStore, commit: string, identity: IndexIdentity): Promise<{ set: RemoteSearchSet; body: Buffer } | null> {
  const bytes = await remote.objects.get(`search/${commit}.json`);
  if (!bytes) return null;
  let set: Partial<RemoteSearchSet>;
  try {
    set = JSON.parse(bytes.toString('utf8')) as Partial<RemoteSearchSet>;
  } catch {
    return null;
  }
  if (set.format !== SEARCH_SET_FORMAT || set.commit !== commit || !/^[0-9a-f]{64}$/.test(set.sha256 ?? '')) return null;
  if (set.modelId !== identity.modelId || set.dim !== identity.dim || set.chunkerVersion !== identity.chunkerVersion) return null;
  if (!Number.isSafeInteger(set.bytes) || set.bytes! <= 0) return null;
  const body = await remote.objects.get(`search/${set.sha256}.snap`, set.bytes).catch((e: unknown) => {
    // Longer than its record says: not the set it names.
    if (e instanceof RemoteUnavailableError && !e.unreachable) return null;
    throw e;
  });
  if (!body || body.length !== set.bytes || createHash('sha256').update(body).digest('hex') !== set.sha256) return null;
  return { set: set as RemoteSearchSet, body };
}
