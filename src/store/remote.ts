import path from 'node:path';
import { ArtifactError, UsageError } from '../util/errors.js';
import type { IndexIdentity } from './identity.js';
import type { IndexLayout, StoreLocation } from './layout.js';
import type { Manifest } from './manifest.js';
import { S3Objects } from './s3/objects.js';
import { parseS3Uri, s3Settings } from './s3/settings.js';

/**
 * A team's store on object storage (config `remote`, e.g. `s3://bucket/prefix`): LanceDB tables under
 * `<prefix>/lance` that CI appends to (`ocrag publish`) and every clone reads through, the identity every vector
 * in them comes from (`identity.json`), one small manifest per published ref (`manifests/<key>.json`) and the
 * publishers' lease (`publish.lease`, s3/lease.ts).
 */
export interface RemoteStore {
  uri: string;
  objects: S3Objects;
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

export function openRemote(uri: string, layout: Pick<IndexLayout, 'dir'>, env: NodeJS.ProcessEnv = process.env): RemoteStore {
  if (!uri.startsWith('s3://')) throw new UsageError(`remote "${uri}" is not supported: expected s3://bucket/prefix`);
  const place = parseS3Uri(uri);
  const objects = new S3Objects(s3Settings(env), place);
  const tables = `s3://${place.bucket}/${[place.prefix, 'lance'].filter(Boolean).join('/')}`;
  // Never created: nothing builds a large view's indexes on the remote (clones search their own copy).
  const location = { tables, writeLock: path.join(layout.dir, 'remote-write.lock'), searchIndexes: path.join(layout.dir, 'remote-search-indexes.json') };
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

/** A published ref's manifest (the local manifest as it is: paths → blobs, commit, tree, identity). */
export async function writeRemoteManifest(remote: RemoteStore, key: string, manifest: Manifest): Promise<void> {
  await remote.objects.put(`manifests/${key}.json`, JSON.stringify(manifest) + '\n');
}

export async function readRemoteManifest(remote: RemoteStore, key: string): Promise<Manifest | null> {
  const bytes = await remote.objects.get(`manifests/${key}.json`);
  if (!bytes) return null;
  try {
    return JSON.parse(bytes.toString('utf8')) as Manifest;
  } catch {
    return null;
  }
}
