import type { BinaryKind } from '../store/blob-state.js';

/**
 * Binary formats told by their first bytes (their "magic"), whatever the file is called: an archive, an image or a
 * database renamed `.txt`, or without an extension, is skipped with what it is. Only signatures no text file starts
 * with are listed (each holds a control byte or a NUL); PDFs are read, not skipped (chunk/pdf.ts).
 */
const SIGNATURES: readonly { kind: BinaryKind; bytes: readonly number[] }[] = [
  { kind: 'zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { kind: 'zip', bytes: [0x50, 0x4b, 0x05, 0x06] },
  { kind: 'gzip', bytes: [0x1f, 0x8b] },
  { kind: 'xz', bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { kind: '7z', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { kind: 'zstd', bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { kind: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { kind: 'jpeg', bytes: [0xff, 0xd8, 0xff] },
  { kind: 'sqlite', bytes: [...'SQLite format 3\0'].map((c) => c.charCodeAt(0)) },
  { kind: 'elf', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { kind: 'wasm', bytes: [0x00, 0x61, 0x73, 0x6d] },
  { kind: 'ole', bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] },
];

/** The first entry of a zip archive that makes it an Office Open XML or OpenDocument file (a .docx, .xlsx, .odt…). */
const OFFICE_ENTRY = /^(\[Content_Types\]\.xml|word\/|xl\/|ppt\/|mimetype)/;

/** What binary format these bytes begin with, or null when none that is listed. */
export function binaryKind(bytes: Uint8Array): BinaryKind | null {
  if (startsWithAscii(bytes, 'GIF87a') || startsWithAscii(bytes, 'GIF89a')) return 'gif';
  // "BZh" + block size + the block magic (π in BCD): "BZh" alone could start a line of text.
  if (startsWithAscii(bytes, 'BZh') && bytes[3]! >= 0x31 && bytes[3]! <= 0x39 && bytes[4] === 0x31 && bytes[5] === 0x41) return 'bzip2';
  if (startsWithAscii(bytes, 'RIFF') && matches(bytes, { bytes: [...'WEBP'].map((c) => c.charCodeAt(0)), at: 8 })) return 'webp';
  for (const sig of SIGNATURES) {
    if (!matches(bytes, sig)) continue;
    return sig.kind === 'zip' && isOffice(bytes) ? 'office document' : sig.kind;
  }
  return null;
}

function matches(bytes: Uint8Array, sig: { bytes: readonly number[]; at?: number }): boolean {
  const at = sig.at ?? 0;
  if (bytes.length < at + sig.bytes.length) return false;
  return sig.bytes.every((b, i) => bytes[at + i] === b);
}

function startsWithAscii(bytes: Uint8Array, text: string): boolean {
  return bytes.length >= text.length && [...text].every((c, i) => bytes[i] === c.charCodeAt(0));
}

/** A zip's first local header names its first entry at byte 30 (length at 26, little-endian). */
function isOffice(bytes: Uint8Array): boolean {
  if (bytes.length < 30) return false;
  const nameLength = bytes[26]! | (bytes[27]! << 8);
  const name = Buffer.from(bytes.buffer, bytes.byteOffset + 30, Math.min(nameLength, bytes.length - 30)).toString('latin1');
  return OFFICE_ENTRY.test(name);
}
