import type { Embedder } from '../embed/index.js';
import { retrieveResident, type Retriever } from './candidates.js';
import { ResidentChunks } from './resident.js';
import type { RestoredState } from './resident-snapshot.js';

/**
 * A retriever over a snapshot file alone, with no store behind it: for a view whose every chunk the snapshot
 * holds (a fresh clone's first answer from the team's published search-ready set, index/remote-first.ts).
 * Null when the file is not a snapshot of this vector size. Nothing is ever written to the file. `read`: the file
 * as it was just read and checked (not read twice).
 */
export function snapshotRetriever(file: string, embedder: Embedder, read?: RestoredState): { retriever: Retriever; blobs: Set<string> } | null {
  const resident = new ResidentChunks(embedder.dim);
  resident.snapshotFile = file;
  resident.restoreSnapshot(read);
  // Read only from here on: a load would write the file, and there is no store to load from.
  resident.snapshotFile = null;
  if (resident.size === 0) return null;
  try {
    // With no store to rebuild from, every text is read and checked now, not when a search reaches it.
    resident.detachSnapshot();
  } catch {
    return null;
  }
  const blobs = new Set(resident.info.map((c) => c.blob));
  return {
    blobs,
    retriever: {
      embed: (query) => embedder.embedQuery(query),
      chunks: async (view, q, settings) => retrieveResident(resident, view, q, settings),
    },
  };
}
