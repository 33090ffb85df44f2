import fs from 'node:fs';

/** Changes whenever the file (or a folder's list of entries) is written, replaced or removed. */
export function fileStamp(file: string): string {
  const stat = fs.statSync(file, { throwIfNoEntry: false, bigint: true });
  return stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}` : '-';
}
