import fs from 'node:fs';
import { createGunzip } from 'node:zlib';
import { Header } from 'tar';
import { ArtifactError, LIMITS, shown, sizeLimit } from './format.js';
import type { ArtifactEntry } from './tar-write.js';

const BLOCK = 512;
/** Large reads: gunzip in 16 KiB steps costs twice the time. */
const READ_CHUNK = 1024 * 1024;
/** Zero padding a tar tool may add after the end-of-archive blocks; anything beyond is refused. */
const MAX_TRAILING_BYTES = 1024 * 1024;

/**
 * Streams the entries of an untrusted gzipped tar into memory, one at a time; nothing is ever written to disk.
 * Before an entry's bytes are read, its header is checked: plain files only (no links, devices or extension
 * headers), a relative path without "..", an expected name, and a declared size within that name's limit.
 * Stops with an ArtifactError on the first violation, on a corrupt header, or on a stream that ends early.
 */
export async function* readTarGz(file: string): AsyncGenerator<ArtifactEntry> {
  const source = fs.createReadStream(file, { highWaterMark: READ_CHUNK });
  const gunzip = createGunzip({ chunkSize: READ_CHUNK });
  source.on('error', (e) => gunzip.destroy(e));
  source.pipe(gunzip);
  const bytes = new ByteReader(gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
  let entries = 0;
  let total = 0;
  try {
    for (;;) {
      const block = await bytes.read(BLOCK);
      if (!block) throw new ArtifactError('artifact is truncated: the archive ends without its end marker');
      const header = new Header(block, 0);
      if (header.nullBlock) break;
      if (!header.cksumValid) throw new ArtifactError('artifact is corrupt: a tar header fails its checksum');
      const name = header.path ?? '';
      checkEntry(name, header.type);
      const size = header.size ?? 0;
      if (!Number.isSafeInteger(size) || size < 0) throw new ArtifactError(`artifact entry ${shown(name)} has an invalid size`);
      const limit = sizeLimit(name);
      if (limit === null) throw new ArtifactError(`artifact holds an unexpected entry ${shown(name)}`);
      if (size > limit) throw new ArtifactError(`artifact entry ${shown(name)} declares ${size} bytes, over the limit of ${limit}`);
      if (++entries > LIMITS.entries) throw new ArtifactError(`artifact holds more than ${LIMITS.entries} entries`);
      total += size;
      if (total > LIMITS.totalBytes) throw new ArtifactError(`artifact unpacks to more than ${LIMITS.totalBytes} bytes`);
      const body = await bytes.read(size);
      const pad = (BLOCK - (size % BLOCK)) % BLOCK;
      if (!body || (pad && !(await bytes.read(pad)))) throw new ArtifactError(`artifact is truncated: entry ${shown(name)} ends early`);
      yield { name, body };
    }
    // Reading to the end makes gunzip check its CRC, which also covers the unhashed trailer entry.
    if ((await bytes.drain(MAX_TRAILING_BYTES)) > MAX_TRAILING_BYTES) throw new ArtifactError('artifact has unexpected data after the end of the archive');
  } finally {
    gunzip.destroy();
    source.destroy();
  }
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

/** Exact-length reads over a stream of chunks. */
class ByteReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  /** Exactly `n` bytes, or null when the stream ends first. */
  async read(n: number): Promise<Buffer | null> {
    while (this.buffered < n && !this.ended) await this.pull();
    if (this.buffered < n) return null;
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      const chunk = this.chunks[0];
      const take = Math.min(chunk.length, n - filled);
      chunk.copy(out, filled, 0, take);
      filled += take;
      if (take === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(take);
    }
    this.buffered -= n;
    return out;
  }

  /** Reads to the end of the stream, up to a little more than `limit` bytes; returns how many there were. */
  async drain(limit: number): Promise<number> {
    while (!this.ended && this.buffered <= limit) await this.pull();
    const n = this.buffered;
    this.chunks = [];
    this.buffered = 0;
    return n;
  }

  private async pull(): Promise<void> {
    let next: IteratorResult<Buffer>;
    try {
      next = await this.source.next();
    } catch (e) {
      throw streamError(e as NodeJS.ErrnoException);
    }
    if (next.done) {
      this.ended = true;
      return;
    }
    this.chunks.push(next.value);
    this.buffered += next.value.length;
  }
}

function streamError(e: NodeJS.ErrnoException): Error {
  if (e.code === 'Z_BUF_ERROR') return new ArtifactError('artifact is truncated: the gzip stream ends early');
  if (e.code === 'Z_DATA_ERROR') return new ArtifactError(`artifact is corrupt or not gzip (${e.message})`);
  if (e.code === 'ENOENT') return new ArtifactError(`no such artifact file: ${e.path ?? ''}`);
  if (e.code === 'EISDIR') return new ArtifactError(`artifact path is a folder, not a file: ${e.path ?? ''}`);
  return e;
}
