import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
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
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  try {
    await pipeline(tarBlocks(entries, mtime), fs.createWriteStream(partial));
    fs.renameSync(partial, file);
  } catch (e) {
    fs.rmSync(partial, { force: true });
    throw e;
  }
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
