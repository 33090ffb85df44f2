import fs from 'node:fs';

/** A git index file's header: "DIRC", its version, then how many entries it holds (big-endian, 4 bytes each). */
const HEADER_BYTES = 12;
const SIGNATURE = 'DIRC';

/**
 * How many paths git's index file tracks, read from its header alone (no git process: a one-shot search asks this
 * before it loads anything); null when the file is missing or not one.
 */
export function trackedCount(indexFile: string): number | null {
  let fd: number;
  try {
    fd = fs.openSync(indexFile, 'r');
  } catch {
    return null;
  }
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    if (fs.readSync(fd, header, 0, HEADER_BYTES, 0) < HEADER_BYTES || header.toString('latin1', 0, 4) !== SIGNATURE) return null;
    return header.readUInt32BE(8);
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}
