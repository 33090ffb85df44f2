import fs from 'node:fs';
import { constants, gunzip, gunzipSync } from 'node:zlib';
import { ArtifactError } from '../util/errors.js';
import { ReadAhead } from '../util/read-ahead.js';
import { shown } from '../util/shown.js';
import { ENTRY, isGzipped, LIMITS, parseHeader, sizeLimit } from './format.js';
import { BLOCK, decodeHeader, isZeroBlock } from './ustar.js';

/** One member of an artifact, read whole. */
export interface ArtifactMember {
  name: string;
  /** The bytes as stored in the archive: what the trailer's digests cover. */
  stored: Buffer;
  /** Its contents: gunzipped (begun as soon as it was read) for a `.gz` member, else the stored bytes. */
  content: Promise<Buffer>;
}

/** Zero padding a tar tool may add after the end-of-archive blocks; anything beyond is refused. */
const MAX_TRAILING_BYTES = 1024 * 1024;

/** Bytes of members read ahead of the caller: the reading and unpacking of a whole small artifact overlaps its checks. */
const READ_AHEAD_BYTES = 64 * 1024 * 1024;

/**
 * Reads the members of an untrusted artifact into memory, one at a time; nothing is ever written to disk.
 * Before a member's bytes are read, its header is checked: plain files only (no links, devices or extension
 * headers), a relative path without "..", an expected name, and a declared size within that name's limit; a
 * gzipped member may unpack to no more than that limit either. Each member is read straight into a buffer of
 * its own, and members are read (and unpacked) ahead of the caller, up to READ_AHEAD_BYTES. Stops with an
 * ArtifactError on the first violation, on a corrupt header, or on a file that ends early.
 */
export async function* readArtifact(file: string): AsyncGenerator<ArtifactMember> {
  const reader = new MemberReader(await openArtifact(file), file);
  const ahead = new ReadAhead(() => reader.next(), (member) => member.stored.length, READ_AHEAD_BYTES);
  try {
    for (;;) {
      const member = await ahead.take();
      if (!member) return;
      yield member;
    }
  } finally {
    await ahead.stop();
    await reader.close();
  }
}

class MemberReader {
  private position = 0;
  private members = 0;
  private storedBytes = 0;

  constructor(
    private readonly handle: fs.promises.FileHandle,
    private readonly file: string,
  ) {}

  /** The next member, or null at the end of the archive. */
  async next(): Promise<ArtifactMember | null> {
    const atStart = this.position === 0;
    const block = await this.read(BLOCK);
    if (atStart) {
      if (block.length >= 2 && block[0] === 0x1f && block[1] === 0x8b) throw await refuseGzipped(this.handle);
      if (block.length < BLOCK || !decodeHeader(block)) throw new ArtifactError('artifact is corrupt or not an ocrag index artifact (it does not start with a tar header)');
    }
    if (block.length < BLOCK) throw new ArtifactError('artifact is truncated: the archive ends without its end marker');
    if (isZeroBlock(block)) {
      await this.checkEnd();
      return null;
    }
    const header = decodeHeader(block);
    if (!header) throw new ArtifactError('artifact is corrupt: a tar header fails its checksum');
    const name = header.path;
    checkEntry(name, header.type);
    const size = header.size;
    if (size === null) throw new ArtifactError(`artifact entry ${shown(name)} has an invalid size`);
    const limit = sizeLimit(name);
    if (limit === null) throw new ArtifactError(`artifact holds an unexpected entry ${shown(name)}`);
    if (size > limit) throw new ArtifactError(`artifact entry ${shown(name)} declares ${size} bytes, over the limit of ${limit}`);
    if (++this.members > LIMITS.entries) throw new ArtifactError(`artifact holds more than ${LIMITS.entries} entries`);
    this.storedBytes += size;
    if (this.storedBytes > LIMITS.totalBytes) throw new ArtifactError(`artifact holds more than ${LIMITS.totalBytes} bytes`);
    const padded = size + ((BLOCK - (size % BLOCK)) % BLOCK);
    const body = await this.read(padded);
    if (body.length < padded) throw new ArtifactError(`artifact is truncated: entry ${shown(name)} ends early`);
    const stored = body.subarray(0, size);
    const content = isGzipped(name) ? gunzipWithin(stored, limit, name) : Promise.resolve(stored);
    content.catch(() => undefined);
    return { name, stored, content };
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  /** After the end marker: at most a little zero padding, then the end of the file. */
  private async checkEnd(): Promise<void> {
    const rest = await this.read(MAX_TRAILING_BYTES + 1);
    if (rest.length > MAX_TRAILING_BYTES || rest.some((b) => b !== 0)) throw new ArtifactError('artifact has unexpected data after the end of the archive');
  }

  /** Up to `n` bytes from the current position, fewer only at the end of the file; in a buffer of their own. */
  private async read(n: number): Promise<Buffer> {
    // Not from Node's shared pool: a vector member's buffer is viewed as float32s, which needs its own alignment.
    const buffer = Buffer.allocUnsafeSlow(n);
    let filled = 0;
    while (filled < n) {
      const { bytesRead } = await this.handle.read(buffer, filled, n - filled, this.position + filled).catch((e: NodeJS.ErrnoException) => {
        throw fileError(e, this.file);
      });
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    this.position += filled;
    return filled === n ? buffer : buffer.subarray(0, filled);
  }
}

async function openArtifact(file: string): Promise<fs.promises.FileHandle> {
  try {
    return await fs.promises.open(file, 'r');
  } catch (e) {
    throw fileError(e as NodeJS.ErrnoException, file);
  }
}

function gunzipWithin(stored: Buffer, limit: number, name: string): Promise<Buffer> {
  // gzip ends with the unpacked size (mod 2^32): one output chunk of that size spares zlib 16 KiB steps and a
  // concatenation, a third of the time. Only a hint, so it is held to what deflate can expand to (1032:1).
  const hinted = stored.length >= 18 ? stored.readUInt32LE(stored.length - 4) + 1 : 0;
  const chunkSize = Math.min(Math.max(hinted, 64 * 1024), limit, stored.length * 1032 + 64 * 1024);
  return new Promise((resolve, reject) =>
    gunzip(stored, { maxOutputLength: limit, chunkSize }, (e, out) => {
      if (!e) return resolve(out);
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE') reject(new ArtifactError(`artifact entry ${shown(name)} unpacks to more than ${limit} bytes, over its limit`));
      else if (code === 'Z_BUF_ERROR') reject(new ArtifactError(`artifact entry ${shown(name)} is truncated gzip data`));
      else reject(new ArtifactError(`artifact entry ${shown(name)} is not valid gzip data`));
    }),
  );
}

/**
 * Artifacts of format version 1 were gzipped tars. Their header says so, in the same words as any other
 * unsupported version; other gzip files are named for what they are.
 */
async function refuseGzipped(handle: fs.promises.FileHandle): Promise<ArtifactError> {
  // The header is the first member and a few hundred bytes: it unpacks from the first few KiB (at most ~1000×
  // as many bytes come out of these, so no output limit is needed).
  const start = Buffer.alloc(16 * 1024);
  const { bytesRead } = await handle.read(start, 0, start.length, 0);
  let tar: Buffer;
  try {
    tar = gunzipSync(start.subarray(0, bytesRead), { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    tar = Buffer.alloc(0);
  }
  const header = tar.length >= BLOCK ? decodeHeader(tar) : null;
  if (!header || header.path !== ENTRY.header || header.size === null || tar.length < BLOCK + header.size) return new ArtifactError('artifact is gzip data, not an ocrag index artifact');
  try {
    parseHeader(tar.subarray(BLOCK, BLOCK + header.size));
  } catch (e) {
    if (e instanceof ArtifactError) return e;
    throw e;
  }
  return new ArtifactError('artifact is gzipped: ocrag import reads the plain .tar that ocrag export writes (gunzip it first)');
}

/** Refuses every entry that could escape a folder or is not a plain file, naming what it is. */
function checkEntry(name: string, type: string): void {
  if (!name || name.includes('\0')) throw new ArtifactError('artifact holds an entry with an empty or invalid name');
  if (name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name)) throw new ArtifactError(`artifact holds an entry with an absolute path ${shown(name)}; refused`);
  if (name.split(/[\\/]/).includes('..')) throw new ArtifactError(`artifact holds an entry with ".." in its path ${shown(name)}; refused`);
  if (type === 'File' || type === 'OldFile') return;
  if (type === 'SymbolicLink') throw new ArtifactError(`artifact holds a symlink ${shown(name)}; refused`);
  if (type === 'Link') throw new ArtifactError(`artifact holds a hard link ${shown(name)}; refused`);
  if (type === 'CharacterDevice' || type === 'BlockDevice' || type === 'FIFO') throw new ArtifactError(`artifact holds a device or special file ${shown(name)} (${type}); refused`);
  throw new ArtifactError(`artifact holds a ${shown(type)} entry ${shown(name)}; only plain files are allowed`);
}

function fileError(e: NodeJS.ErrnoException, file: string): Error {
  if (e.code === 'ENOENT') return new ArtifactError(`no such artifact file: ${file}`);
  if (e.code === 'EISDIR') return new ArtifactError(`artifact path is a folder, not a file: ${file}`);
  return e;
}
