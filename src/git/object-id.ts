import { createHash } from 'node:crypto';

/** A full git object id as git prints it: 40 lower-case hex digits (SHA-1) or 64 (SHA-256). */
export const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID.test(value);
}

/** The id git gives these bytes as a blob: sha1 of "blob <size>\0" + bytes, or sha256 in a SHA-256 repository (64 hex digits). */
export function blobIdOf(bytes: Buffer, hexDigits = 40): string {
  return createHash(hexDigits === 64 ? 'sha256' : 'sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
