import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Header } from 'tar';

export interface ArtifactEntry {
  name: string;
  body: Buffer;
}

const BLOCK = 512;

/**
 * Writes entries as a gzipped ustar archive, streaming: one entry in memory at a time. The file appears under
 * its name only once complete (written beside it, then renamed), so a failed export never leaves half an
 * artifact that looks whole.
 */
export async function writeTarGz(file: string, entries: AsyncIterable<ArtifactEntry>, mtime: Date): Promise<number> {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  try {
    // Speed over ratio: float vectors barely compress, and export runs in every CI build.
    await pipeline(tarBlocks(entries, mtime), createGzip({ level: 1 }), fs.createWriteStream(partial));
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

function encodeHeader(name: string, size: number, mtime: Date): Buffer {
  const header = new Header({ path: name, mode: 0o644, size, mtime, type: 'File', uid: 0, gid: 0, uname: '', gname: '' });
  const block = Buffer.alloc(BLOCK);
  header.encode(block, 0);
  if (header.needPax) throw new Error(`tar entry ${name} needs a pax header, which ocrag artifacts never use`);
  return block;
}
