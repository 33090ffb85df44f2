import fs from 'node:fs';
import path from 'node:path';
import { readSnapshot } from '../search/resident-snapshot.js';
import type { ChunkInfo } from '../store/contract.js';
import type { IndexIdentity } from '../store/identity.js';
import { readRemoteSearchSet } from '../store/remote.js';
import { chunkId } from './chunk-id.js';
import { chunkerVersionsByLanguage, type RemoteReader } from './read-through.js';

/**
 * The search-ready set published for this commit (share/publish-search-set.ts), its bytes checked against the
 * sha256 its record names, or null: none published, another identity, bytes that do not match, or the remote
 * failing (the first search then builds the set from the chunks copied, as without a remote). Never throws.
 */
export async function fetchSearchSet(reader: RemoteReader, commit: string, identity: IndexIdentity, fetchedBefore?: string): Promise<Buffer | null> {
  try {
    // A first search of this clone fetched it already (remote-first.ts): it is checked again when placed.
    if (fetchedBefore && fs.existsSync(fetchedBefore)) return fs.readFileSync(fetchedBefore);
    return (await readRemoteSearchSet(reader.remote, commit, identity))?.body ?? null;
  } catch {
    return null;
  }
}

/**
 * Places a fetched search-ready set at `file` (the local store's snapshot, or a fresh clone's first answer) when
 * every row's chunk id is derived again from its blob, span, model and chunker and the row is `accepted` (a chunk
 * this run copied and checked; a blob of HEAD's tree). Anything else, or a file already there, places nothing.
 */
export function placeSearchSet(body: Buffer, file: string, identity: IndexIdentity, accepted: (chunk: ChunkInfo) => boolean): boolean {
  if (fs.existsSync(file)) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.fetched`;
  fs.writeFileSync(tmp, body);
  let ok = false;
  try {
    const restored = readSnapshot(tmp, identity.dim);
    if (!restored) return false;
    const versionOf = chunkerVersionsByLanguage(identity);
    ok = restored.state.info.every((c) => accepted(c) && c.id === chunkId(c.blob, versionOf(c.language), identity.modelId, c.startLine, c.endLine));
    restored.detach();
    if (ok) fs.renameSync(tmp, file);
    return ok;
  } catch {
    return false;
  } finally {
    if (!ok) fs.rmSync(tmp, { force: true });
  }
}
