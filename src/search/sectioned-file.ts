import fs from 'node:fs';

/**
 * A file of named typed-array sections behind a small JSON header:
 *
 *   8 bytes magic · u32 header length · header JSON · padding to 8 · eager sections · lazy sections
 *
 * Reading it back is one read of the eager sections into one buffer, each section a view into it (no per-item
 * objects, no second copy), while lazy sections stay on disk and are read a slice at a time: a one-shot search
 * needs every vector but the text of only the few hundred chunks it ranks and shows.
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
}

interface Header<Meta> {
  meta: Meta;
  sections: SectionEntry[];
  /** The file's whole length: anything shorter is torn. */
  bytes: number;
}

const align8 = (n: number) => (n + 7) & ~7;

/** Writes eager then lazy sections after the header; `meta` is any JSON the reader checks. */
export function writeSectionedFile<Meta>(file: string, magic: string, meta: Meta, eager: Record<string, Section>, lazy: Record<string, Section>): void {
  const magicBytes = magicOf(magic);
  const all = [...Object.entries(eager), ...Object.entries(lazy)];
  // The header holds the offsets, which depend on the header's length: measure it with the widest numbers first.
  const layout = (start: number): Header<Meta> => {
    let offset = start;
    const sections = all.map(([name, data]) => {
      const entry: SectionEntry = { name, type: typeName(data), offset, length: data.length };
      offset = align8(offset + data.byteLength);
      return entry;
    });
    return { meta, sections, bytes: offset };
  };
  const headerBytes = (h: Header<Meta>) => Buffer.from(JSON.stringify(h), 'utf8');
  // Offsets depend on where the sections start, which depends on the header's length: leave room for the
  // header as if every number were the widest, and let the sections begin there.
  const start = align8(12 + headerBytes(layout(Number.MAX_SAFE_INTEGER)).length);
  const header = layout(start);
  const headerJson = headerBytes(header);
  const out = Buffer.alloc(header.bytes);
  magicBytes.copy(out, 0);
  out.writeUInt32LE(headerJson.length, 8);
  headerJson.copy(out, 12);
  header.sections.forEach((entry, i) => {
    const data = all[i][1];
    out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), entry.offset);
  });
  fs.writeFileSync(file, out);
}

/** An opened sectioned file: eager sections in memory, lazy ones read on demand until `detach`. */
export class SectionedFile<Meta> {
  private fd: number | null;
  private lazyBytes = new Map<string, Uint8Array>();

  private constructor(
    readonly meta: Meta,
    private readonly eager: Map<string, Section>,
    private readonly lazy: Map<string, SectionEntry>,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** The file, or null when it is missing, torn or not of this magic. */
  static open<Meta>(file: string, magic: string, eagerNames: string[]): SectionedFile<Meta> | null {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return null;
    }
    try {
      const opened = SectionedFile.read<Meta>(fd, magic, eagerNames);
      if (!opened) fs.closeSync(fd);
      return opened;
    } catch {
      fs.closeSync(fd);
      return null;
    }
  }

  private static read<Meta>(fd: number, magic: string, eagerNames: string[]): SectionedFile<Meta> | null {
    const prefix = Buffer.alloc(12);
    if (fs.readSync(fd, prefix, 0, 12, 0) !== 12 || !prefix.subarray(0, 8).equals(magicOf(magic))) return null;
    const headerLength = prefix.readUInt32LE(8);
    const size = fs.fstatSync(fd).size;
    if (12 + headerLength > size) return null;
    const headerBuffer = Buffer.alloc(headerLength);
    if (fs.readSync(fd, headerBuffer, 0, headerLength, 12) !== headerLength) return null;
    const header = JSON.parse(headerBuffer.toString('utf8')) as Header<Meta>;
    if (header.bytes !== size || !Array.isArray(header.sections)) return null;
    const byName = new Map(header.sections.map((s) => [s.name, s]));
    const eagerEntries = eagerNames.map((name) => byName.get(name));
    if (eagerEntries.some((e) => !e || !(e.type in TYPES))) return null;
    // The eager sections lie together: one read covers them.
    const first = Math.min(...eagerEntries.map((e) => e!.offset));
    const last = Math.max(...eagerEntries.map((e) => e!.offset + e!.length * TYPES[e!.type].BYTES_PER_ELEMENT));
    const block = new ArrayBuffer(last - first);
    if (fs.readSync(fd, new Uint8Array(block), 0, block.byteLength, first) !== block.byteLength) return null;
    const eager = new Map<string, Section>();
    for (const e of eagerEntries) eager.set(e!.name, new TYPES[e!.type](block, e!.offset - first, e!.length));
    const lazy = new Map(header.sections.filter((s) => !eagerNames.includes(s.name) && s.type === 'Uint8Array').map((s) => [s.name, s]));
    return new SectionedFile(header.meta, eager, lazy, fd);
  }

  section(name: string): Section {
    const s = this.eager.get(name);
    if (!s) throw new Error(`no eager section ${name}`);
    return s;
  }

  /** Bytes `start..end` of a lazy byte section. */
  slice(name: string, start: number, end: number): Uint8Array {
    const whole = this.lazyBytes.get(name);
    if (whole) return whole.subarray(start, end);
    const entry = this.lazy.get(name);
    if (!entry || this.fd === null || start < 0 || end > entry.length || end < start) throw new Error(`no bytes ${start}..${end} in ${name}`);
    const out = new Uint8Array(end - start);
    if (out.length && fs.readSync(this.fd, out, 0, out.length, entry.offset + start) !== out.length) throw new Error(`${name} ends early`);
    return out;
  }

  /** Reads every lazy section into memory and closes the file (before it is replaced, or to hold no descriptor). */
  detach(): void {
    if (this.fd === null) return;
    for (const [name, entry] of this.lazy) this.lazyBytes.set(name, this.slice(name, 0, entry.length));
    this.close();
  }

  /** Closes the file; lazy sections not read in by `detach` can no longer be read. */
  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
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
