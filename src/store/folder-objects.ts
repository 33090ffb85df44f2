import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OcragError, RemoteUnavailableError } from '../util/errors.js';
import { SMALL_OBJECT_BYTES, type ObjectStore, type ObjectStoreProvider, type ObjectTables } from './object-store.js';

/**
 * A remote in a folder (`file:///srv/ocrag-team`, or the absolute path): a share every publisher and clone mounts,
 * and what tests publish to without a server. Keys are files under it; LanceDB reads its tables as a `file://` URI,
 * so they are a remote's in every respect (opened as a remote's, damage in them refuses the remote).
 */
export const folderProvider: ObjectStoreProvider = {
  example: 'file:///path/to/folder',
  open(url) {
    let root: string;
    try {
      root = url.startsWith('file:') ? fileURLToPath(url) : url;
    } catch (e) {
      throw new OcragError(`invalid folder remote "${url}": ${(e as Error).message}`);
    }
    if (!path.isAbsolute(root)) throw new OcragError(`invalid folder remote "${url}": expected an absolute path or file:///path`);
    return new FolderObjects(path.resolve(root), url.replace(/\/+$/, ''));
  },
};

/** Where writes are made before they are renamed or linked into place; list() never shows them. */
const PARTIAL = '.partial-';

export class FolderObjects implements ObjectStore {
  constructor(
    readonly root: string,
    private readonly url: string,
  ) {}

  shown(key = ''): string {
    return key ? `${this.url}/${key}` : this.url;
  }

  async get(key: string, maxBytes = SMALL_OBJECT_BYTES): Promise<Buffer | null> {
    const file = this.file(key);
    return this.io(key, () => {
      if (!fs.existsSync(file)) return null;
      if (fs.statSync(file).size > maxBytes) throw new RemoteUnavailableError(`${this.shown(key)}: answered more than ${maxBytes} bytes`, false);
      return fs.readFileSync(file);
    });
  }

  async download(key: string, to: string): Promise<boolean> {
    const file = this.file(key);
    return this.io(key, () => {
      if (!fs.existsSync(file)) return false;
      fs.copyFileSync(file, to);
      return true;
    });
  }

  /** Written beside the object first, then renamed over it, or, with `ifAbsent`, hard-linked to its name: link() fails when the name is taken. */
  async put(key: string, body: Buffer | string, opts: { ifAbsent?: boolean } = {}): Promise<boolean> {
    const file = this.file(key);
    return this.io(key, () => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const partial = path.join(path.dirname(file), `${PARTIAL}${process.pid}-${randomBytes(4).toString('hex')}`);
      fs.writeFileSync(partial, body);
      try {
        if (!opts.ifAbsent) fs.renameSync(partial, file);
        else fs.linkSync(partial, file);
        return true;
      } catch (e) {
        if (opts.ifAbsent && (e as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw e;
      } finally {
        fs.rmSync(partial, { force: true });
      }
    });
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key);
    return this.io(key, () => fs.rmSync(file, { force: true }));
  }

  async list(prefix: string): Promise<string[]> {
    return this.io(prefix, () => {
      if (!fs.existsSync(this.root)) return [];
      const keys = fs
        .readdirSync(this.root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && !e.name.startsWith(PARTIAL))
        .map((e) => path.relative(this.root, path.join(e.parentPath ?? e.path, e.name)).split(path.sep).join('/'));
      return keys.filter((k) => k.startsWith(prefix)).sort();
    });
  }

  tables(key: string): ObjectTables {
    return { uri: pathToFileURL(this.file(key)).href, storageOptions: {} };
  }

  /** A key's file: its `/`-separated segments under the root, none empty, `.` or `..` (keys are ocrag's own, but a name in one is not). */
  private file(key: string): string {
    const segments = key.split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..' || /[\\\0]/.test(s))) throw new OcragError(`invalid key "${key}" for the remote store ${this.url}`);
    return path.join(this.root, ...segments);
  }

  /** A failure of the folder (not mounted, not permitted, full) is the remote's, as a server's error would be. */
  private io<T>(key: string, run: () => T): T {
    try {
      return run();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (e instanceof OcragError || !code) throw e;
      throw new RemoteUnavailableError(`${this.shown(key)}: ${code}`, true);
    }
  }
}
