import type { ChunkReader, ChunkStore, ContentStore } from './contract.js';
import type { IndexLayout } from './layout.js';
import { openStore } from './open-store.js';

/**
 * A store that is opened on first use. Most searches never need it (the resident set answers from its snapshot
 * and a clean work tree adds nothing), and opening it means loading its backend, a third of a one-shot search.
 */
export class StoreHandle {
  private opening: Promise<ChunkStore> | null = null;

  /** `generation` names the store's incarnation (its creation time): what is cached of its rows belongs to it. */
  constructor(readonly layout: IndexLayout, readonly dim: number, readonly generation = '') {}

  /** The store, to read and to add to (a search's overlay of edits); the handle's close() closes it. */
  get(): Promise<ChunkReader & ContentStore> {
    if (!this.opening) {
      const opening = openStore(this.layout, this.dim, { create: false });
      // A failed open is not kept: the next use tries again (the caller reports this one).
      opening.catch(() => {
        if (this.opening === opening) this.opening = null;
      });
      this.opening = opening;
    }
    return this.opening;
  }

  /** Closes the store if it was opened; the handle opens it afresh when used again. */
  close(): void {
    const opening = this.opening;
    this.opening = null;
    void opening?.then((store) => store.close(), () => undefined);
  }
}
