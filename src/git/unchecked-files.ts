import fs from 'node:fs';
import path from 'node:path';
import { gitIndexFileOverride } from '../config/environment.js';
import { readRegularFile } from '../util/read-regular.js';
import { blobIdOf } from './blob-id.js';
import { keyDir, keyFsPath, pathKey } from './path-key.js';
import type { WorkingChange } from './status.js';

/**
 * Edits git status never shows: a file marked `git update-index --skip-worktree` or `--assume-unchanged` (a settings
 * file kept with local values, `DATABASE_HOST = "prod.internal"`) is not compared with the index, so its edits are
 * invisible to `git status` while the file the agent opens says something else. ocrag answers with what the file
 * says: each such file present in the work tree whose bytes are not its index entry's blob is an edit. A marked file
 * missing from the work tree (outside a sparse checkout's cone) stays what the commit holds, as before.
 * Read from the index file itself (no git process on the one-shot search's path; ~0.2 ms for 1,000 entries), with the
 * stat data git keeps per entry deciding, as git does, which files need their bytes hashed.
 */
export function uncheckedEdits(root: string, gitDir: string): WorkingChange[] {
  let index: Buffer;
  try {
    index = fs.readFileSync(path.resolve(root, gitIndexFileOverride() ?? path.join(gitDir, 'index')));
  } catch {
    return [];
  }
  const marked = markedEntries(index);
  if (!marked) return [];
  return marked.filter((entry) => editedOnDisk(root, entry)).map((entry) => ({ path: entry.path, deleted: false }));
}

/** git status's changes, with the unchecked edits it does not show added after them. */
export async function withUncheckedEdits(root: string, gitDir: string, changes: Promise<WorkingChange[]>): Promise<WorkingChange[]> {
  const unchecked = uncheckedEdits(root, gitDir);
  const shown = await changes;
  if (!unchecked.length) return shown;
  const named = new Set(shown.map((change) => change.path));
  return [...shown, ...unchecked.filter((change) => !named.has(change.path))];
}

/** One index entry git does not compare with the work tree. */
export interface MarkedEntry {
  /** A key (`path-key.ts`). */
  path: string;
  blob: string;
  mtimeSeconds: number;
  mtimeNanoseconds: number;
  size: number;
}

/** Flags of an index entry (git's read-cache.h): CE_VALID is `--assume-unchanged`, CE_EXTENDED says a second word follows. */
const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const NAME_LENGTH = 0x0fff;
/** In the second word: `--skip-worktree` (and sparse checkouts). */
const SKIP_WORKTREE = 0x4000;
/** ctime, mtime (seconds, nanoseconds each), dev, ino, mode, uid, gid, size: ten 32-bit words before the object id. */
const STAT_BYTES = 40;

/**
 * The marked entries of an index file (versions 2 to 4), or null when none is marked or the file is one this reader
 * does not follow (a split index, another format): then nothing is added and git status alone decides, as before.
 * Pure.
 */
export function markedEntries(index: Buffer): MarkedEntry[] | null {
  if (index.length < 12 || index.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = index.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = index.readUInt32BE(8);
  // The object id's length is not in the header: SHA-1 (20) unless the entries only line up with SHA-256's (32).
  for (const idBytes of [20, 32]) {
    const read = readEntries(index, version, count, idBytes);
    if (read) return read.length ? read : null;
  }
  return null;
}

function readEntries(index: Buffer, version: number, count: number, idBytes: number): MarkedEntry[] | null {
  const marked: MarkedEntry[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const flagsAt = at + STAT_BYTES + idBytes;
    if (flagsAt + 2 > index.length) return null;
    const flags = index.readUInt16BE(flagsAt);
    const nameAt = flagsAt + 2 + (version >= 3 && flags & EXTENDED ? 2 : 0);
    if (nameAt > index.length) return null;
    const extended = nameAt > flagsAt + 2 ? index.readUInt16BE(flagsAt + 2) : 0;
    const isMarked = (flags & ASSUME_VALID) !== 0 || (extended & SKIP_WORKTREE) !== 0;
    const start = at;
    let name: Buffer;
    if (version === 4) {
      // Each name is the one before it with `strip` bytes cut from its end and this entry's bytes added.
      const [strip, afterStrip] = varint(index, nameAt);
      const end = index.indexOf(0, afterStrip);
      if (end < 0 || strip > previous.length) return null;
      name = previous = Buffer.concat([previous.subarray(0, previous.length - strip), index.subarray(afterStrip, end)]);
      at = end + 1;
    } else {
      // The name's length is in the flags below 4,095 bytes; its NUL is checked, which also tells the id's length.
      let length = flags & NAME_LENGTH;
      if (length === NAME_LENGTH) length = index.indexOf(0, nameAt + length) - nameAt;
      if (length < 0 || index[nameAt + length] !== 0) return null;
      name = index.subarray(nameAt, nameAt + length);
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes from their start.
      at += (nameAt - at + length + 8) & ~7;
    }
    if (isMarked) {
      // A name git would never write (`../../etc/passwd`, `.git/config`): not an index git wrote, nothing is read.
      if (!inWorkTree(name)) return null;
      marked.push(entryAt(index, start, idBytes, name));
    }
  }
  return splitIndex(index, at) ? null : marked;
}

/** git's own rule for an index entry's name (read-cache.c, `verify_path`): relative, no empty, `.`, `..` or `.git` part. */
function inWorkTree(name: Buffer): boolean {
  const parts = name.toString('latin1').split('/');
  return parts.every((part) => part !== '' && part !== '.' && part !== '..' && part.toLowerCase() !== '.git');
}

function entryAt(index: Buffer, start: number, idBytes: number, name: Buffer): MarkedEntry {
  return {
    path: pathKey(name),
    blob: index.toString('hex', start + STAT_BYTES, start + STAT_BYTES + idBytes),
    mtimeSeconds: index.readUInt32BE(start + 8),
    mtimeNanoseconds: index.readUInt32BE(start + 12),
    size: index.readUInt32BE(start + 36),
  };
}

/** Whether the extensions after the entries hold `link`: a split index keeps most entries in another file. */
function splitIndex(index: Buffer, at: number): boolean {
  while (at + 8 <= index.length - 20) {
    if (index.toString('latin1', at, at + 4) === 'link') return true;
    at += 8 + index.readUInt32BE(at + 4);
  }
  return false;
}

/** The offset-varint of index version 4 (git's varint.c): 7 bits a byte, each continuation adding one. */
function varint(buffer: Buffer, at: number): [number, number] {
  let byte = buffer[at++];
  let value = byte & 0x7f;
  while (byte & 0x80) {
    byte = buffer[at++];
    value = ((value + 1) << 7) | (byte & 0x7f);
  }
  return [value, at];
}

/** Whether the work tree's file differs from its entry: unchanged stat data means unchanged bytes, as git reads it. */
function editedOnDisk(root: string, entry: MarkedEntry): boolean {
  const full = keyFsPath(root, entry.path);
  let stat: fs.BigIntStats;
  try {
    stat = fs.lstatSync(full, { bigint: true });
  } catch {
    return false;
  }
  // The index keeps the size's low 32 bits, as compared here.
  const sameSize = Number(stat.size & 0xffffffffn) === entry.size;
  if ((sameSize && Number(stat.mtimeNs / 1_000_000_000n) === entry.mtimeSeconds && Number(stat.mtimeNs % 1_000_000_000n) === entry.mtimeNanoseconds) || throughLink(root, entry.path)) return false;
  // Another size is other bytes: edited, and not read here (the overlay reads it, within its own limit).
  if (!sameSize) return true;
  try {
    // Through one descriptor: a file swapped for a FIFO since the lstat is not waited on, nor a link followed; no
    // more than the entry's size (a file grown past it since is edited).
    const read = stat.isFile() ? readRegularFile(full, entry.size) : null;
    const bytes = stat.isSymbolicLink() ? fs.readlinkSync(full, { encoding: 'buffer' }) : read && read.bytes.length === read.size ? read.bytes : null;
    return bytes === null || blobIdOf(bytes, entry.blob.length) !== entry.blob;
  } catch {
    return true;
  }
}

/** Whether a folder on the way to the file is a symbolic link (a marked file's folder swapped for one): git reads no file through one, nor does ocrag. */
function throughLink(root: string, key: string): boolean {
  for (let dir = keyDir(key); dir; dir = keyDir(dir)) {
    if (fs.lstatSync(keyFsPath(root, dir), { throwIfNoEntry: false })?.isSymbolicLink() !== false) return true;
  }
  return false;
}
