import fs from 'node:fs';
import path from 'node:path';

export interface AtomicWriteOptions {
  /**
   * Flush the file and its folder to disk before and after the rename (default true), so a power cut leaves
   * the old file or the new one. False only for caches that are rebuilt when lost, written on a hot path.
   */
  durable?: boolean;
}

/** Writes a file so that readers see either the old or the new content, never a torn one. */
export function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  writeAtomicallyWith(file, (tmp) => fs.writeFileSync(tmp, data), options);
}

/** As writeFileAtomic, for a writer that fills the temp file itself. */
export function writeAtomicallyWith(file: string, write: (tmp: string) => void, options: AtomicWriteOptions = {}): void {
  const tmp = tempBeside(file);
  try {
    write(tmp);
    commit(tmp, file, options);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** As writeAtomicallyWith, for a writer that streams into the temp file. */
export async function streamAtomically(file: string, write: (tmp: string) => Promise<void>, options: AtomicWriteOptions = {}): Promise<void> {
  const tmp = tempBeside(file);
  try {
    await write(tmp);
    commit(tmp, file, options);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** In the same folder, so the rename never crosses a file system. */
function tempBeside(file: string): string {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  return `${file}.${process.pid}.${Date.now()}.tmp`;
}

function commit(tmp: string, file: string, { durable = true }: AtomicWriteOptions): void {
  if (durable) fsyncPath(tmp, 'r+');
  fs.renameSync(tmp, file);
  if (durable) syncFolder(path.dirname(path.resolve(file)));
}

function fsyncPath(file: string, flags: string): void {
  const fd = fs.openSync(file, flags);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes the rename itself durable; Windows cannot open a folder for this, and needs no such step. */
export function syncFolder(dir: string): void {
  if (process.platform === 'win32') return;
  try {
    fsyncPath(dir, 'r');
  } catch {
    // Some file systems refuse to fsync a folder (EINVAL, EISDIR): the file itself is already flushed.
  }
}
