import { writeFileAtomic } from '../util/atomic-write.js';
import { readJson } from '../util/json-file.js';

/** What an index run last copied from the remote store instead of embedding (the URI without any credential). */
export interface RemoteRun {
  at: string;
  remote: string;
  commit: string;
  blobs: number;
  chunks: number;
  marks: number;
  contents: number;
  searchSet: boolean;
}

/** Best effort: the record is only for `ocrag status` to show. */
export function writeRemoteRun(file: string, run: RemoteRun): void {
  try {
    writeFileAtomic(file, JSON.stringify(run, null, 2) + '\n');
  } catch {
    // Nothing depends on it.
  }
}

export function readRemoteRun(file: string): RemoteRun | null {
  const run = readJson<RemoteRun>(file);
  return run && typeof run.remote === 'string' && typeof run.chunks === 'number' ? run : null;
}
