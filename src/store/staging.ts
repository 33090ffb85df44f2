import fs from 'node:fs';
import type { ChunkStore } from './contract.js';
import { removeStagingLeftovers } from './index-swap.js';
import { storeLocation, type IndexLayout, type StoreLocation } from './layout.js';
import { openStore, storeExists } from './open-store.js';

export { removeStagingLeftovers } from './index-swap.js';

/**
 * A new store built in a folder of its own beside the index (`.ocrag/staging-<pid>/`) and moved into place by
 * one rename once complete: the index never holds a half-written store. A failure removes the folder; after a
 * kill it stays behind, unused, until the next staging run removes it.
 */
export class StagedStore {
  private constructor(
    readonly store: ChunkStore,
    private readonly dir: string,
    private readonly location: StoreLocation,
  ) {}

  /** The caller holds the index lock, so no other staging run is alive: any staging folder found is left over. */
  static async create(layout: IndexLayout, dim: number): Promise<StagedStore> {
    removeStagingLeftovers(layout);
    const dir = layout.staging;
    const location = storeLocation(dir);
    fs.mkdirSync(dir, { recursive: true });
    try {
      return new StagedStore(await openStore(location, dim), dir, location);
    } catch (e) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }

  /** Moves the tables to `target`, which must not have any: a rename never merges two stores. */
  place(target: StoreLocation): void {
    this.store.close();
    if (storeExists(target)) throw new Error(`${target.tables} appeared while a store was staged for it`);
    fs.renameSync(this.location.tables, target.tables);
    // A large store's mark (see large-store.ts) sits beside its tables and moves with them.
    if (fs.existsSync(this.location.searchIndexes)) fs.renameSync(this.location.searchIndexes, target.searchIndexes);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  discard(): void {
    this.store.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
