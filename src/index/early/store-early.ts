import type { Embedder } from '../../embed/index.js';
import { ensureGitExclude } from '../../store/layout.js';
import { writingInto } from '../../store/index-folder.js';
import { tryLock } from '../../util/file-lock.js';
import type { IndexContext } from '../index-context.js';
import { openStoreFor } from '../open-store.js';
import type { EmbeddedFiles } from './embed-files.js';

/**
 * Stores what an early answer embedded, as an index run would have stored it (rows keyed by blob, chunker and
 * model; contents by their key), so the run that follows finds those blobs known and embeds none of them again.
 * Makes the store when there is none yet, under the index lock taken without waiting: when another run holds it,
 * nothing is written (that run embeds the files itself) and false is returned.
 */
export async function storeEarlyChunks(ctx: IndexContext, embedder: Embedder, embedded: EmbeddedFiles, onNotice?: (message: string) => void): Promise<boolean> {
  if (!embedded.rows.length && !embedded.marks.length) return true;
  return writingInto(ctx.layout, async () => {
    const lock = tryLock(ctx.layout.lock);
    if (!lock) return false;
    try {
      ensureGitExclude(ctx.repo);
      const store = await openStoreFor(ctx, embedder, { onNotice });
      try {
        const blobs = new Set([...embedded.rows.map((r) => r.blob), ...embedded.marks.map((m) => m.blob)]);
        // An earlier early answer, or a run killed midway, may have stored some of them: those are left as they are.
        const stored = await store.blobState(blobs);
        const rows = embedded.rows.filter((r) => !stored.has(r.blob));
        if (rows.length) await store.addChunks(rows, stored.size > 0 || (await store.countChunks()) > 0);
        await store.addMarks(embedded.marks.filter((m) => !stored.has(m.blob)));
        return true;
      } finally {
        store.close();
      }
    } finally {
      lock.release();
    }
  });
}
