import type { CodeIndex } from '../service/code-index.js';
import type { Manifest } from '../store/manifest.js';
import { stateSignature, type StateSignature } from './state-signature.js';
import { TreeWatcher } from './tree-watcher.js';

/**
 * What a long-lived server searches: the same view the CLI computes (HEAD's index brought up to date, plus
 * uncommitted edits), kept between queries while HEAD, the index files and the work tree are unchanged, so a
 * repeated search runs no git at all. Any change, or any doubt, recomputes it the CLI's way.
 */
export class LiveView {
  private cached: { signature: string; view: Manifest } | null = null;
  /** The index files as last seen: when another process rewrites them, the kept store must be reopened. */
  private indexFiles: string | null = null;
  private refreshing: Promise<Manifest> | null = null;
  private readonly watcher: TreeWatcher;

  constructor(private readonly index: CodeIndex) {
    this.watcher = new TreeWatcher(index.ctx.repo.root);
  }

  /** `update: false` answers from the index as it is (while a reindex of our own is writing it). */
  async get(opts: { update: boolean }): Promise<Manifest> {
    for (;;) {
      // File events already queued (an edit the agent made just before asking) must land before we trust the cache.
      await new Promise((resolve) => setImmediate(resolve));
      const signature = stateSignature(this.index.ctx);
      if (this.cached && signature && key(signature) === this.cached.signature && !this.watcher.dirty) return this.cached.view;
      if (this.refreshing) {
        // Someone is recomputing: wait, then check again (a change may have come after they started).
        await this.refreshing.catch(() => undefined);
        continue;
      }
      const refreshing = this.refresh(signature, opts.update);
      this.refreshing = refreshing;
      try {
        return await refreshing;
      } finally {
        this.refreshing = null;
      }
    }
  }

  invalidate(): void {
    this.cached = null;
  }

  close(): void {
    this.watcher.close();
  }

  private async refresh(before: StateSignature | null, update: boolean): Promise<Manifest> {
    this.cached = null;
    if (before?.index !== this.indexFiles) this.index.releaseStore();
    // Clean before computing: an edit made while git runs marks it dirty again, and the next query recomputes.
    this.watcher.markClean();
    const view = await this.index.currentView({ update });
    // An index run rewrites the index files, so the signature to keep is the one after it; but if HEAD or the
    // config moved meanwhile, this view may already be behind: keep nothing.
    const after = stateSignature(this.index.ctx);
    this.indexFiles = after?.index ?? null;
    if (before && after && before.source === after.source) this.cached = { signature: key(after), view };
    await this.watcher.watchFoldersOf([...Object.keys(view.files), ...Object.keys(view.skipped)]);
    return view;
  }
}

function key(signature: StateSignature): string {
  return `${signature.source}\n${signature.index}`;
}
