import fs from 'node:fs';
import zlib from 'node:zlib';
import { runAll, runPausing, type Pause, type Steps } from '../util/event-loop.js';
import { align8, eagerLayout } from './eager-layout.js';

/**
 * A file of named typed-array sections behind a small JSON header:
 *
 *   8 bytes magic · u32 header length · u32 CRC-32 of the header · header JSON · padding to 8 · eager sections
 *   · each lazy section's block checksums · lazy sections
 *
 * Reading it back is one read of the eager sections into one buffer, each section a view into it (no per-item
 * objects, no second copy), while lazy sections stay on disk and are read a slice at a time: a one-shot search
 * needs every vector but the text of only the few hundred chunks it ranks and shows.
 *
 * Every byte read is checked (a garbled file must never answer): the header by its CRC-32, which holds each
 * section's, so eager sections are checked as they are read; a lazy section by the CRC-32 of each BLOCK bytes
 * of it, kept in a section of its own read with the eager ones, so a slice checks only the blocks it covers.
 * zlib's CRC-32 ran at 0.7 GB/s over freshly read bytes (2.3 GB/s over cached ones) on the 14 MB of eager
 * sections of tokio's snapshot.
 */
export type Section = Uint8Array | Int8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

const TYPES = { Uint8Array, Int8Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array };
type TypeName = keyof typeof TYPES;

interface SectionEntry {
  name: string;
  type: TypeName;
  /** Byte offset from the start of the file (a multiple of 8). */
  offset: number;
  length: number;
  /** CRC-32 of its bytes. */
  crc: number;
}

/**
 * Bytes of a lazy section per checksum: a slice reads and checks the whole blocks it lies in. A chunk's text
 * averages 480 bytes; the 224 texts a tokio search reads cost 1.5–4.8 ms of CPU in 1 KiB blocks, 10–14 ms in
 * 4 KiB ones, 3 ms read alone.
 */
const BLOCK = 1024;
/** The section holding a lazy section's block checksums. */
const blocksOf = (name: string) => `${name}.blocks`;
const PREFIX = 16;

/** A lazy section whose bytes do not match their checksums: the file was damaged after it was written. */
export class SectionDamageError extends Error {}

interface Header<Meta> {
  meta: Meta;
  sections: SectionEntry[];
  /** The file's whole length: anything shorter is torn. */
  bytes: number;
}

/** Writes eager then lazy sections after the header; `meta` is any JSON the reader checks. */
export function writeSectionedFile<Meta>(file: string, magic: string, meta: Meta, eager: Record<string, Section>, lazy: Record<string, Section>): void {
  fs.writeFileSync(file, runAll(sectionedFileBytes(magic, meta, eager, lazy)));
}

/**
 * As writeSectionedFile, letting the event loop in at `pause` while the bytes are checksummed and laid out, and
 * writing them off this thread: a long-lived server keeps answering while it writes a large snapshot.
 */
export async function writeSectionedFilePausing<Meta>(file: string, magic: string, meta: Meta, eager: Record<string, Section>, lazy: Record<string, Section>, pause: Pause): Promise<void> {
  await fs.promises.writeFile(file, await runPausing(sectionedFileBytes(magic, meta, eager, lazy), pause));
}

/** The file's bytes, made in steps that each cover at most STEP_BYTES of the sections. */
function* sectionedFileBytes<Meta>(magic: string, meta: Meta, eager: Record<string, Section>, lazy: Record<string, Section>): Steps<Buffer> {
  const magicBytes = magicOf(magic);
  const blocks: [string, Section][] = [];
  for (const [name, data] of Object.entries(lazy)) blocks.push([blocksOf(name), yield* blockChecksums(bytesOf(data))]);
  const all = [...Object.entries(eager), ...blocks, ...Object.entries(lazy)];
  const crcs: number[] = [];
  for (const [, data] of all) crcs.push(yield* crc32Of(bytesOf(data)));
  // The header holds the offsets, which depend on the header's length: measure it with the widest numbers first.
  const layout = (start: number): Header<Meta> => {
    let offset = start;
    const sections = all.map(([name, data], i) => {
      const entry: SectionEntry = { name, type: typeName(data), offset, length: data.length, crc: crcs[i] };
      offset = align8(offset + data.byteLength);
      return entry;
    });
    return { meta, sections, bytes: offset };
  };
  const headerBytes = (h: Header<Meta>) => Buffer.from(JSON.stringify(h), 'utf8');
  // Offsets depend on where the sections start, which depends on the header's length: leave room for the
  // header as if every number were the widest, and let the sections begin there.
  const start = align8(PREFIX + headerBytes(layout(Number.MAX_SAFE_INTEGER)).length);
  const header = layout(start);
  const headerJson = headerBytes(header);
  const out = Buffer.alloc(header.bytes);
  magicBytes.copy(out, 0);
  out.writeUInt32LE(headerJson.length, 8);
  out.writeUInt32LE(zlib.crc32(headerJson), 12);
  headerJson.copy(out, PREFIX);
  for (const [i, entry] of header.sections.entries()) {
    const bytes = bytesOf(all[i][1]);
    for (let at = 0; at < bytes.length; at += STEP_BYTES) {
      out.set(bytes.subarray(at, at + STEP_BYTES), entry.offset + at);
      yield;
    }
  }
  return out;
}

/**
 * Bytes checksummed or copied between two chances to pause: zlib's CRC-32 runs at 0.7–2.3 GB/s (above), so a
 * step is a millisecond or two, and a poll never waits behind a whole 50 MB section.
 */
const STEP_BYTES = 1 << 20;

function* crc32Of(bytes: Uint8Array): Steps<number> {
  let crc = 0;
  for (let at = 0; at < bytes.length; at += STEP_BYTES) {
    crc = zlib.crc32(bytes.subarray(at, at + STEP_BYTES), crc);
    yield;
  }
  return crc;
}

/** An opened sectioned file: eager sections in memory, lazy ones read on demand until `detach`. */
export class SectionedFile<Meta> {
  private fd: number | null;
  private lazyBytes = new Map<string, Uint8Array>();

  private constructor(
    readonly meta: Meta,
    private readonly eager: Map<string, Section>,
    private readonly lazy: Map<string, LazySection>,
    fd: number,
  ) {
    this.fd = fd;
  }

  /**
   * The file, or null when it is missing, torn, damaged (a header or eager section that fails its checksum) or not
   * of this magic. With `lazy` false, only the eager sections named are read, and no lazy section can be.
   * `allocate` gives the buffer the eager sections are read into (at its start), from their length and the meta;
   * `last` names an eager section read in after all the others, so that it ends where their bytes end.
   */
  static open<Meta>(file: string, magic: string, eagerNames: string[], { lazy = true, allocate = plainBuffer, optional = [], last }: OpenOptions<Meta> = {}): SectionedFile<Meta> | null {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return null;
    }
    try {
      const opened = SectionedFile.read<Meta>(fd, magic, eagerNames, lazy, allocate, optional, last);
      if (!opened) fs.closeSync(fd);
      return opened;
    } catch {
      fs.closeSync(fd);
      return null;
    }
  }

  /** Whether the file begins with this magic: one of this layout, whatever state the rest is in. */
  static hasMagic(file: string, magic: string): boolean {
    try {
      const fd = fs.openSync(file, 'r');
      try {
        const head = Buffer.alloc(8);
        return fs.readSync(fd, head, 0, 8, 0) === 8 && head.equals(magicOf(magic));
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return false;
    }
  }

  private static read<Meta>(fd: number, magic: string, named: string[], withLazy: boolean, allocate: (bytes: number, meta: Meta) => ArrayBuffer, optional: string[], placeLast: string | undefined): SectionedFile<Meta> | null {
    const prefix = Buffer.alloc(PREFIX);
    if (fs.readSync(fd, prefix, 0, PREFIX, 0) !== PREFIX || !prefix.subarray(0, 8).equals(magicOf(magic))) return null;
    const headerLength = prefix.readUInt32LE(8);
    const size = fs.fstatSync(fd).size;
    if (PREFIX + headerLength > size) return null;
    const headerBuffer = Buffer.alloc(headerLength);
    if (fs.readSync(fd, headerBuffer, 0, headerLength, PREFIX) !== headerLength || zlib.crc32(headerBuffer) !== prefix.readUInt32LE(12)) return null;
    const header = JSON.parse(headerBuffer.toString('utf8')) as Header<Meta>;
    if (header.bytes !== size || !Array.isArray(header.sections)) return null;
    const byName = new Map(header.sections.map((s) => [s.name, s]));
    const eagerNames = [...named, ...optional.filter((name) => byName.has(name))];
    const lazyEntries = header.sections.filter((s) => withLazy && !eagerNames.includes(s.name) && s.type === 'Uint8Array' && byName.has(blocksOf(s.name)));
    const eagerEntries = [...eagerNames, ...lazyEntries.map((s) => blocksOf(s.name))].map((name) => byName.get(name));
    if (eagerEntries.some((e) => !e || !(e.type in TYPES))) return null;
    const spans = (eagerEntries as SectionEntry[]).map((e) => ({ name: e.name, offset: e.offset, end: e.offset + e.length * TYPES[e.type].BYTES_PER_ELEMENT }));
    // Before anything is allocated for them: a header (its checksum made to fit) cannot ask for more than the file holds.
    if (spans.some((s) => !(s.offset >= 0 && s.end <= size))) return null;
    const { pieces, bytes, at } = eagerLayout(spans, placeLast);
    const block = allocate(bytes, header.meta);
    if (block.byteLength < bytes) return null;
    for (const { from, to, length } of pieces) if (fs.readSync(fd, new Uint8Array(block, to, length), 0, length, from) !== length) return null;
    const eager = new Map<string, Section>();
    for (const [i, e] of eagerEntries.entries()) {
      const section = new TYPES[e!.type](block, at[i], e!.length);
      if (zlib.crc32(bytesOf(section)) !== e!.crc) return null;
      eager.set(e!.name, section);
    }
    const lazy = new Map(lazyEntries.map((s) => [s.name, { ...s, blocks: eager.get(blocksOf(s.name)) as Uint32Array }]));
    return new SectionedFile(header.meta, eager, lazy, fd);
  }

  /** Whether an eager section was read (an `optional` one the file has). */
  has(name: string): boolean {
    return this.eager.has(name);
  }

  section(name: string): Section {
    const s = this.eager.get(name);
    if (!s) throw new Error(`no eager section ${name}`);
    return s;
  }

  /** Bytes `start..end` of a lazy byte section, read with the whole blocks they lie in; SectionDamageError when those fail their checksums. */
  slice(name: string, start: number, end: number): Uint8Array {
    const whole = this.lazyBytes.get(name);
    if (whole) return whole.subarray(start, end);
    const entry = this.lazy.get(name);
    if (!entry || this.fd === null || start < 0 || end > entry.length || end < start) throw new Error(`no bytes ${start}..${end} in ${name}`);
    if (end === start) return new Uint8Array(0);
    const from = Math.floor(start / BLOCK) * BLOCK;
    const blocks = new Uint8Array(Math.min(Math.ceil(end / BLOCK) * BLOCK, entry.length) - from);
    if (fs.readSync(this.fd, blocks, 0, blocks.length, entry.offset + from) !== blocks.length) throw new Error(`${name} ends early`);
    for (let at = 0; at < blocks.length; at += BLOCK) {
      if (zlib.crc32(blocks.subarray(at, at + BLOCK)) !== entry.blocks[(from + at) / BLOCK]) throw new SectionDamageError(`bytes ${from + at}.. of section ${name} do not match their checksum`);
    }
    return blocks.subarray(start - from, end - from);
  }

  /**
   * Reads every lazy section into memory, checked, and closes the file (before it is replaced, or to hold no
   * descriptor); SectionDamageError when a section fails its checksum (the file is closed then too).
   */
  detach(): void {
    if (this.fd === null) return;
    try {
      for (const [name, entry] of this.lazy) this.lazyBytes.set(name, this.slice(name, 0, entry.length));
    } finally {
      this.close();
    }
  }

  /** Closes the file; lazy sections not read in by `detach` can no longer be read. */
  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}

interface OpenOptions<Meta> {
  lazy?: boolean;
  allocate?: (bytes: number, meta: Meta) => ArrayBuffer;
  /** Eager sections read when the file has them (a later layout's additions, which older readers skip). */
  optional?: string[];
  /**
   * An eager section placed after all the others in the buffer, whatever its place in the file: what follows it
   * there is free (a snapshot's vectors, which segment rows then extend in place: int8-dots.ts).
   */
  last?: string;
}

const plainBuffer = (bytes: number) => new ArrayBuffer(bytes);

interface LazySection extends SectionEntry {
  /** CRC-32 of each BLOCK bytes. */
  blocks: Uint32Array;
}

function* blockChecksums(bytes: Uint8Array): Steps<Uint32Array> {
  const out = new Uint32Array(Math.ceil(bytes.length / BLOCK));
  for (let i = 0; i < out.length; i++) {
    out[i] = zlib.crc32(bytes.subarray(i * BLOCK, (i + 1) * BLOCK));
    if (i % (STEP_BYTES / BLOCK) === 0) yield;
  }
  return out;
}

function bytesOf(data: Section): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** The section's array type (a Node Buffer is stored as the bytes it is). */
function typeName(data: Section): TypeName {
  const name = (Object.keys(TYPES) as TypeName[]).find((t) => t !== 'Uint8Array' && data instanceof TYPES[t]);
  return name ?? 'Uint8Array';
}

function magicOf(magic: string): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.write(magic.slice(0, 8), 'latin1');
  return bytes;
}
