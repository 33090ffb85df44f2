import type { IndexLayout } from '../store/layout.js';
import type { StoreMeta } from '../store/meta.js';
import { StoreHandle } from '../store/store-handle.js';

/**
 * The store a long-lived CodeIndex keeps open between calls (warm caches), counted by the calls using it: released,
 * it closes once the last of them is done, and the next call opens it afresh and sees every write.
 */
export class KeptStore {
  private kept: { store: StoreHandle; users: number; released: boolean } | null = null;

  constructor(private readonly layout: IndexLayout) {}

  async use<T>(meta: StoreMeta, run: (store: StoreHandle) => Promise<T>, retried = false): Promise<T> {
    const reused = this.kept !== null && this.kept.store.dim === meta.dim && this.kept.store.generation === meta.createdAt;
    if (!reused) {
      this.release();
      this.kept = { store: new StoreHandle(this.layout, meta.dim, meta.createdAt), users: 0, released: false };
    }
    const kept = this.kept!;
    kept.users++;
    try {
      return await run(kept.store);
    } catch (e) {
      // A kept handle may predate a compaction by another process (its files are gone): once more on a fresh one.
      if (!reused || retried) throw e;
      this.release();
      return await this.use(meta, run, true);
    } finally {
      kept.users--;
      if (kept.released && kept.users === 0) kept.store.close();
    }
  }

  release(): void {
    const kept = this.kept;
    if (!kept) return;
    this.kept = null;
    kept.released = true;
    if (kept.users === 0) kept.store.close();
  }
}
