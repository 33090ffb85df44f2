import fs from 'node:fs';

/** A file as read: its size when opened, and its bytes (none when the size is past the limit). */
export interface RegularFile {
  size: number;
  bytes: Buffer;
  /** The descriptor's own stat: whose the file is and when it changed, of the very file read. */
  stat: fs.Stats;
}

/**
 * Reads a regular file through one descriptor, so what is read is what was checked: a file a folder's stat called
 * regular may be swapped for a symbolic link (to a file of the user's elsewhere) or a FIFO (which would never answer)
 * before it is opened. The last name is not followed, a FIFO is not waited on, and the bytes stop at the size the
 * descriptor had (a file that grows meanwhile is read as it was). Null when it is gone or not a regular file.
 */
export function readRegularFile(file: string | Buffer, maxBytes: number): RegularFile | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return null;
    if (stat.size > maxBytes) return { size: stat.size, bytes: Buffer.alloc(0), stat };
    const bytes = Buffer.allocUnsafe(stat.size);
    let at = 0;
    for (let n = -1; at < stat.size && n !== 0; at += n) n = fs.readSync(fd, bytes, at, stat.size - at, at);
    return { size: stat.size, bytes: at === stat.size ? bytes : bytes.subarray(0, at), stat };
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}
