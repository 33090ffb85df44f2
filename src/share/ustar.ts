/**
 * The one tar header block an artifact member has: ustar, plain files only. Both sides are here because an
 * artifact needs so little of tar (no long names, no pax, no links) that the `tar` package, which costs a
 * process more to load than an artifact's headers cost to parse, is not needed to read or write one.
 */
export const BLOCK = 512;

/** What a reader needs of a header block: the member's path and type, and the size of its body. */
export interface TarHeader {
  path: string;
  /** node-tar's name for the type flag ("File", "SymbolicLink", …), so refusals name the kind of entry. */
  type: string;
  /** Null when the size field is not a plain octal number (base-256 sizes are far over every member limit). */
  size: number | null;
}

const TYPES: Record<string, string> = {
  '0': 'File',
  '\0': 'OldFile',
  '1': 'Link',
  '2': 'SymbolicLink',
  '3': 'CharacterDevice',
  '4': 'BlockDevice',
  '5': 'Directory',
  '6': 'FIFO',
  '7': 'ContiguousFile',
  g: 'GlobalExtendedHeader',
  x: 'ExtendedHeader',
  L: 'NextFileHasLongPath',
  K: 'NextFileHasLongLinkpath',
};

/** Whether a block is all zeros: the end-of-archive marker. */
export function isZeroBlock(block: Uint8Array): boolean {
  for (let i = 0; i < BLOCK; i++) if (block[i] !== 0) return false;
  return true;
}

/** Decodes a header block; null when its checksum does not match (corrupt, or not a tar at all). */
export function decodeHeader(block: Uint8Array): TarHeader | null {
  if (!checksumMatches(block)) return null;
  const name = text(block, 0, 100);
  // ustar (not GNU tar's "ustar  ") keeps the leading folders of a long path in a prefix field.
  const prefix = text(block, 257, 263) === 'ustar' ? text(block, 345, 500) : '';
  const flag = String.fromCharCode(block[156]);
  return { path: prefix ? `${prefix}/${name}` : name, type: TYPES[flag] ?? `type ${flag}`, size: octal(block, 124, 136) };
}

/** A ustar header block for a plain file readable by everyone; `name` must fit in 100 bytes. */
export function encodeHeader(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar member name too long: ${name}`);
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 'utf8');
  const field = (value: number, at: number, width: number) => block.write(value.toString(8).padStart(width - 1, '0') + '\0', at, 'latin1');
  field(0o644, 100, 8);
  field(0, 108, 8);
  field(0, 116, 8);
  field(size, 124, 12);
  field(Math.floor(mtime.getTime() / 1000), 136, 12);
  block.write('0', 156, 'latin1');
  block.write('ustar\u000000', 257, 'latin1');
  block.write(' '.repeat(8), 148, 'latin1');
  block.write(sum(block).toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
  return block;
}

/** POSIX sums the bytes as unsigned; some old tars summed them as signed, which readers still accept. */
function checksumMatches(block: Uint8Array): boolean {
  const stored = octal(block, 148, 156);
  if (stored === null) return false;
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : block[i];
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

function sum(block: Uint8Array): number {
  let total = 0;
  for (let i = 0; i < BLOCK; i++) total += block[i];
  return total;
}

/** A NUL-terminated field as UTF-8 (how node-tar and GNU tar write names). */
function text(block: Uint8Array, start: number, end: number): string {
  let stop = start;
  while (stop < end && block[stop] !== 0) stop++;
  return Buffer.from(block.buffer, block.byteOffset + start, stop - start).toString('utf8');
}

/** An octal number padded with spaces or NULs; null for anything else. */
function octal(block: Uint8Array, start: number, end: number): number | null {
  const digits = Buffer.from(block.buffer, block.byteOffset + start, end - start).toString('latin1').replace(/[\0 ]+$/, '').replace(/^ +/, '');
  return /^[0-7]{1,12}$/.test(digits) ? parseInt(digits, 8) : null;
}
