import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { streamAtomically } from '../util/atomic-write.js';
import type { ArtifactTarget } from './artifact-target.js';
import { BLOCK, encodeHeader } from './ustar.js';

/** One member of an artifact, as stored. */
export interface ArtifactEntry {
  name: string;
  body: Buffer;
}

/**
 * Writes entries as a plain ustar archive, streaming: one entry in memory at a time. A file appears under its
 * name only once complete (written beside it, then renamed), so a failed export never leaves half an artifact
 * that looks whole; a stream (stdout) gets the blocks as they come, and its reader sees a short tar on failure.
 * Returns the bytes written.
 */
export async function writeTar(target: string | ArtifactTarget, entries: AsyncIterable<ArtifactEntry>, mtime: Date): Promise<number> {
  const to = typeof target === 'string' ? { file: target } : target;
  if ('stream' in to) {
    let bytes = 0;
    const counted = async function* () {
      for await (const block of tarBlocks(entries, mtime)) {
        bytes += block.length;
        yield block;
      }
    };
    // stdout is never closed by node; `end: false` keeps any other stream open for its owner.
    await pipeline(counted(), to.stream, { end: false });
    return bytes;
  }
  await streamAtomically(to.file, (tmp) => pipeline(tarBlocks(entries, mtime), fs.createWriteStream(tmp)));
  return fs.statSync(to.file).size;
}

async function* tarBlocks(entries: AsyncIterable<ArtifactEntry>, mtime: Date): AsyncGenerator<Buffer> {
  for await (const entry of entries) {
    yield encodeHeader(entry.name, entry.body.length, mtime);
    yield entry.body;
    const pad = (BLOCK - (entry.body.length % BLOCK)) % BLOCK;
    if (pad) yield Buffer.alloc(pad);
  }
  // End of archive: two zero blocks.
  yield Buffer.alloc(2 * BLOCK);
}
