import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { OcragError } from '../util/errors.js';

/** Where an export writes: a regular file (replaced whole, atomically) or a stream (`--out -`: stdout). */
export type ArtifactTarget = { file: string } | { stream: Writable };

/** `--out -` names the standard output. */
export const STDOUT_NAME = '-';

/**
 * The file an export may write, refused before any work when it is not a regular file or a new name: a FIFO,
 * a device or a socket would be replaced by a plain file (as root, `/dev/full` became a tar file), a symbolic
 * link by a file where the link was (the user meant its target, or did not mean it), a folder cannot be one.
 */
export function checkArtifactFile(file: string): string {
  const resolved = path.resolve(file);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(resolved);
  } catch {
    return resolved;
  }
  if (stat.isFile()) return resolved;
  const kind = stat.isSymbolicLink() ? 'a symbolic link' : stat.isDirectory() ? 'a folder' : stat.isFIFO() ? 'a FIFO' : stat.isSocket() ? 'a socket' : 'a device';
  const fix = stat.isDirectory() ? `name a file in it (--out ${path.join(file, 'index.tar')})` : `name a new or regular file, or stream it there yourself (ocrag export --out - > ${file})`;
  throw new OcragError(`--out ${file} is ${kind}, not a file: ${fix}`);
}
