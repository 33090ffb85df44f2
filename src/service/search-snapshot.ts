import { currentManifest } from '../index/manifest-state.js';
import type { IndexContext } from '../index/index-context.js';
import type { ChunksInHand } from '../index/chunks-in-hand.js';
import { keepSnapshotCurrent } from '../search/search.js';
import { readMeta } from '../store/meta.js';
import { StoreHandle } from '../store/store-handle.js';

/**
 * An index run that stored new blobs (a hook's, after a commit) leaves the snapshot a one-shot search restores
 * behind: bringing it up to date after the run, off the search's clock, spares the next search opening LanceDB.
 * The chunks the run stored are taken as it held them (`inHand`), and with them a first index writes the
 * snapshot too. Best effort: on any failure the next search does it.
 */
export async function refreshSearchSnapshot(ctx: IndexContext, inHand?: ChunksInHand): Promise<void> {
  try {
    const manifest = currentManifest(ctx);
    const meta = readMeta(ctx.layout.meta);
    if (!manifest || !meta) return;
    const store = new StoreHandle(ctx.layout, meta.dim, meta.createdAt);
    try {
      const held = inHand?.any ? async () => inHand.resolve(await store.get()) : false;
      await keepSnapshotCurrent(store, meta.modelId, new Set(Object.values(manifest.files)), held);
    } finally {
      store.close();
    }
  } catch {
    // A cache: the search that needs it builds it.
  }
}
