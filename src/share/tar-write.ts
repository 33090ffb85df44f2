import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { streamAtomically } from '../util/atomic-write.js';
import { BLOCK, encodeHeader } from './ustar.js';

/** One member of an artifact, as stored. */
export interface ArtifactEntry {
  name: string;
  body: Buffer;
}

/**
 * Writes entries as a plain ustar archive, streaming: one entry in memory at a time. The file appears under
 * its name only once complete (written beside it, then renamed), so a failed export never leaves half an
 * artifact that looks whole.
 */
export async function writeTar(file: string, entries: AsyncIterable<ArtifactEntry>, mtime: Date): Promise<number> {
  await streamAtomically(file, (tmp) => pipeline(tarBlocks(entries, mtime), fs.createWriteStream(tmp)));
  return fs.statSync(file).size;
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
