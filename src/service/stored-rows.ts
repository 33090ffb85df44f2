import fs from 'node:fs';
import path from 'node:path';
import { currentManifest } from '../index/manifest-state.js';
import type { IndexContext } from '../index/index-context.js';
import { snapshotDamage } from '../search/resident-snapshot.js';
import { keepSnapshotCurrent } from '../search/search.js';
import { CHUNK_FIELDS } from '../store/chunk-columns.js';
import type { ChunkReader } from '../store/contract.js';
import { asStoreDamage } from '../store/damage.js';
import type { IndexLayout } from '../store/layout.js';
import { readMeta } from '../store/meta.js';
import { StoreHandle } from '../store/store-handle.js';

/**
 * The cheap checks of `doctor` on what search reads, apart from the deep ones (texts against blobs, vectors
 * embedded again): the rows of a view read once through the checks every read of the store makes
 * (store/batch-integrity.ts: digests, spans, content keys, vector norms), and the snapshots one-shot searches
 * restore read whole through their checksums (search/sectioned-file.ts).
 */

/** Reads every column of every chunk of these blobs; returns how many there are. A damaged row throws StoreDamageError. */
export async function readViewRows(store: ChunkReader, blobs: Iterable<string>): Promise<number> {
  let chunks = 0;
  for await (const batch of store.chunkColumns([...new Set(blobs)], CHUNK_FIELDS)) chunks += batch.numRows;
  return chunks;
}

/** The search snapshots in `.ocrag/resident/` that would not be restored, each with why. */
export function damagedSnapshots(layout: Pick<IndexLayout, 'resident'>, dim: number): string[] {
  if (!fs.existsSync(layout.resident)) return [];
  return fs
    .readdirSync(layout.resident)
    .filter((name) => name.endsWith('.snap'))
    .flatMap((name) => {
      const problem = snapshotDamage(path.join(layout.resident, name), dim);
      return problem ? [`${name}: ${problem}`] : [];
    });
}

/**
 * What an index run that found HEAD up to date (it read nothing) checks, so a damaged store is exit 4 there, never
 * "up to date": that the set searches read is whole. Cheap by design: the snapshot is restored through its
 * checksums (~20 ms for tokio's 14 MB) without opening LanceDB; only a missing one is built from the store, every
 * row checked, as the next search would.
 */
export async function checkSearchSet(ctx: IndexContext): Promise<void> {
  const manifest = currentManifest(ctx);
  const meta = readMeta(ctx.layout.meta);
  if (!manifest || !meta) return;
  const store = new StoreHandle(ctx.layout, meta.dim, meta.createdAt);
  try {
    await keepSnapshotCurrent(store, meta.modelId, new Set(Object.values(manifest.files)), true);
  } catch (e) {
    throw asStoreDamage(e, ctx.layout.tables);
  } finally {
    store.close();
  }
}
