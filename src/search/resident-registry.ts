import { createHash } from 'node:crypto';
import path from 'node:path';
import { ResidentChunks } from './resident.js';

const residents = new Map<string, ResidentChunks>();

/**
 * One resident set per store incarnation and model for the life of the process (a server keeps it across queries).
 * A new incarnation of the same store replaces the old set rather than piling up beside it.
 */
export function residentFor(key: string, dim: number, snapshotDir?: string): ResidentChunks {
  let r = residents.get(key);
  if (!r || r.dim !== dim || r.failed) {
    const dir = key.slice(0, key.indexOf('\n') + 1);
    for (const [other, set] of residents) {
      if (!other.startsWith(dir)) continue;
      residents.delete(other);
      try {
        // A search still running on the old set may read its texts: take them in, and let go of the file.
        set.detachSnapshot();
      } catch {
        // A damaged one: that search fails on it and starts afresh (candidates.ts).
      }
    }
    residents.set(key, (r = new ResidentChunks(dim)));
    // Keyed by store incarnation and model: a blob's rows never change within one, so the snapshot stays valid.
    if (snapshotDir) r.snapshotFile = snapshotFileFor(key, snapshotDir);
  }
  return r;
}

export function snapshotFileFor(key: string, snapshotDir: string): string {
  return path.join(snapshotDir, `${createHash('sha256').update(key).digest('hex').slice(0, 16)}.snap`);
}

