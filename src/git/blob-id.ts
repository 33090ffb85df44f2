import { createHash } from 'node:crypto';

// Apart from object-id.ts, which the warm search's quick entry loads: node:crypto costs that start ~3 ms.
/** The id git gives these bytes as a blob: sha1 of "blob <size>\0" + bytes, or sha256 in a SHA-256 repository (64 hex digits). */
export function blobIdOf(bytes: Buffer, hexDigits = 40): string {
  return createHash(hexDigits === 64 ? 'sha256' : 'sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
