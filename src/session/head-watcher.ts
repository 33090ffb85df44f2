import fs from 'node:fs';
import type { IndexContext } from '../index/index-context.js';
import { stateSignature } from './state-signature.js';

/** What git rewrites in the git dirs when HEAD moves; the rest (the index file, which `git status` refreshes, logs, locks) is noise. */
const HEAD_FILES = new Set(['HEAD', 'packed-refs']);

/**
 * Calls back when HEAD or the branch it points at moves (a commit, a checkout, a reset): the part of the state
 * signature the work tree watcher can't see, for a caller that acts on changes rather than comparing the
 * signature before each query. Watches the git dir, the common dir and the folder of HEAD's loose ref, one
 * non-recursive watch each, and follows HEAD to another branch's folder.
 */
export class HeadWatcher {
  /** Folder → its watch, and whether any entry there counts (a ref folder) or only HEAD_FILES do. */
  private readonly watchers = new Map<string, { watch: fs.FSWatcher; any: boolean }>();
  private last: string | null;

  constructor(
    private readonly ctx: IndexContext,
    private readonly onChange: () => void,
  ) {
    this.last = this.source();
    this.rewatch();
  }

  close(): void {
    for (const { watch } of this.watchers.values()) watch.close();
    this.watchers.clear();
  }

  private source(): string | null {
    return stateSignature(this.ctx)?.source ?? null;
  }

  /** Folder → whether any entry there counts. */
  private folders(): Map<string, boolean> {
    return this.ctx.kind.headFolders(this.ctx);
  }

  private rewatch(): void {
    const wanted = this.folders();
    for (const [folder, { watch, any }] of this.watchers) {
      if (wanted.get(folder) !== any) {
        watch.close();
        this.watchers.delete(folder);
      }
    }
    for (const [folder, any] of wanted) {
      if (this.watchers.has(folder)) continue;
      try {
        const watch = fs.watch(folder, { persistent: false }, (_event, name) => this.onEvent(any || HEAD_FILES.has(String(name))));
        watch.on('error', () => (watch.close(), this.watchers.delete(folder)));
        this.watchers.set(folder, { watch, any });
      } catch {
        // No such folder (a branch whose ref is only packed, no reftable): nothing there to watch.
      }
    }
  }

  private onEvent(relevant: boolean): void {
    if (!relevant) return;
    const now = this.source();
    // Without a signature (reftable) every relevant event may be a move.
    if (now !== null && now === this.last) return;
    this.last = now;
    this.rewatch();
    this.onChange();
  }
}
