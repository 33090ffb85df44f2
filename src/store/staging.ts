import fs from 'node:fs';
import path from 'node:path';
import { ChunkStore } from './chunk-store.js';
import { LARGE_STORE_MARKER } from './large-store.js';

const PREFIX = 'staging-';

/**
 * A new store built in a folder of its own beside the index (`.ocrag/staging-<pid>/`) and moved into place by
 * one rename once complete: the index never holds a half-written store. A failure removes the folder; after a
 * kill it stays behind, unused, until the next staging run removes it.
 */
export class StagedStore {
  private constructor(
    readonly store: ChunkStore,
    private readonly dir: string,
  ) {}

  /** The caller holds the index lock, so no other staging run is alive: any staging folder found is left over. */
  static async create(indexDir: string, dim: number): Promise<StagedStore> {
    removeStagingLeftovers(indexDir);
    const dir = path.join(indexDir, `${PREFIX}${process.pid}`);
    fs.mkdirSync(dir, { recursive: true });
    try {
      return new StagedStore(await ChunkStore.open(path.join(dir, 'lance'), dim), dir);
    } catch (e) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }

  /** Moves the tables to `lanceDir`, which must not exist: a rename never merges two stores. */
  place(lanceDir: string): void {
    this.store.close();
    if (fs.existsSync(lanceDir)) throw new Error(`${lanceDir} appeared while a store was staged for it`);
    fs.renameSync(path.join(this.dir, 'lance'), lanceDir);
    // A large store's mark (see large-store.ts) sits beside its tables and moves with them.
    const marker = path.join(this.dir, LARGE_STORE_MARKER);
    if (fs.existsSync(marker)) fs.renameSync(marker, path.join(lanceDir, '..', LARGE_STORE_MARKER));
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  discard(): void {
    this.store.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Removes every staging folder: call with the index lock held (or when clearing the index), so none is in use. */
export function removeStagingLeftovers(indexDir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(indexDir);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(PREFIX)) fs.rmSync(path.join(indexDir, name), { recursive: true, force: true });
}
