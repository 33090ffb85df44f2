/**
 * A team's remote store is objects under one root (`s3://bucket/prefix`, a folder): small records ocrag reads and
 * writes by key (the identity, the published manifests, the search-ready sets, the publishers' lease) and the
 * LanceDB tables under `lance/`, which LanceDB reads and writes itself once told where they are. Each kind of
 * object storage is one ObjectStoreProvider, chosen by the remote's URL in object-stores.ts.
 */

/** Where LanceDB reaches tables on an object store: the URI it connects to, and its object_store options (credentials: in memory, never written). */
export interface ObjectTables {
  uri: string;
  storageOptions: Record<string, string>;
}

export interface ObjectStore {
  /** The root, or a key under it, as messages show it (`s3://bucket/prefix/key`): never a credential. */
  shown(key?: string): string;
  /**
   * The object's bytes, or null when there is none. Records are small: past `maxBytes` (default 1 MiB) the read
   * stops with a RemoteUnavailableError that is not `unreachable`, so a hostile or broken remote cannot fill memory.
   */
  get(key: string, maxBytes?: number): Promise<Buffer | null>;
  /** Copies the object into a file (an artifact); false when there is none. */
  download(key: string, file: string): Promise<boolean>;
  /**
   * Writes the object whole (a reader sees the old bytes or the new, never a part); with `ifAbsent`, only if there
   * is none yet, false when there was: how publishers take turns (lease.ts).
   */
  put(key: string, body: Buffer | string, opts?: { ifAbsent?: boolean }): Promise<boolean>;
  /** Deletes the object; none there is no error. */
  delete(key: string): Promise<void>;
  /** Every key under this prefix of keys (`search/`), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Where LanceDB connects for the tables under this key. */
  tables(key: string): ObjectTables;
}

/** One kind of object storage. */
export interface ObjectStoreProvider {
  /** What a remote of this kind looks like, for messages: `s3://bucket/prefix`. */
  example: string;
  /** The store rooted at this URL; an OcragError when it is not one this provider serves, or cannot be reached as configured. */
  open(url: string): ObjectStore;
}

/** The largest record get() reads unless told otherwise: an identity, a manifest record or the lease is a few KiB. */
export const SMALL_OBJECT_BYTES = 1024 * 1024;
