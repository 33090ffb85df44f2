import { currentManifest } from '../index/manifest-state.js';
import type { IndexContext } from '../index/index-context.js';
import type { SourcesView } from '../index/sources.js';
import type { Manifest } from '../store/manifest.js';
import type { StorageError } from '../util/errors.js';
import { asStorageError } from '../util/storage-problem.js';

/**
 * A search's writes the disk may refuse (a read-only `.ocrag`, a full disk): catching the index up with HEAD,
 * storing the vectors of uncommitted edits or of the added sources. Refused, the search still answers, from the
 * index as it is, and one notice says what the answer leaves out; only when there is nothing to answer from does the
 * refusal stand (exit 7).
 */
export class AsIs {
  constructor(
    private readonly ctx: () => IndexContext,
    private readonly onNotice?: (message: string) => void,
    /** Nothing is answered as it is: the refusal stands. */
    private readonly writesRequired = false,
  ) {}

  /** Catching up with HEAD: refused, the branch's manifest answers as it is (behind HEAD, maybe). */
  async catchUp(write: () => Promise<unknown>): Promise<void> {
    await this.orAsIs(write, (refused) => {
      const ctx = this.ctx();
      const at = currentManifest(ctx);
      if (!at) throw refused;
      this.tell(refused, `answering from the index as it is (${at.commit.slice(0, 8)}${at.tree === ctx.head.tree ? '' : ', behind HEAD'})`);
    });
  }

  /** Uncommitted edits laid over the committed view: refused, the committed view. */
  edits(write: () => Promise<Manifest>, committed: Manifest): Promise<Manifest> {
    return this.orAsIs(write, (refused) => {
      this.tell(refused, 'answering without uncommitted edits');
      return committed;
    });
  }

  /** The added sources laid over the view: refused, the view alone (a plain folder's files are a source: no answer). */
  sources(write: () => Promise<SourcesView>, view: Manifest): Promise<SourcesView> {
    return this.orAsIs(write, (refused) => {
      if (this.ctx().kind.ownSources(this.ctx()).length) throw refused;
      this.tell(refused, 'answering without the added sources');
      return { view, absolute: new Map(), newBlobs: 0, chunksEmbedded: 0 };
    });
  }

  private async orAsIs<T>(write: () => Promise<T>, onRefused: (refused: StorageError) => T): Promise<T> {
    try {
      return await write();
    } catch (e) {
      const refused = asStorageError(e, this.ctx().layout.dir);
      if (!refused) throw e;
      if (this.writesRequired) throw refused;
      return onRefused(refused);
    }
  }

  private tell(e: StorageError, leftOut: string): void {
    this.onNotice?.(asIsNotice(e, leftOut));
  }
}

/** The one line saying a write was refused and what the answer leaves out because of it. */
export function asIsNotice(e: StorageError, leftOut: string): string {
  const why = e.problem === 'full' ? `no space left on the disk holding ${e.where}` : e.problem === 'read-only' ? `${e.where} is read-only` : `cannot write to ${e.where} (permission denied)`;
  return `ocrag: ${why}: ${leftOut}`;
}
