import { createHash } from 'node:crypto';
import type { EntryDigest } from './format.js';

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The digest over all entries: sha256 of the `sha256sum` listing of them, so a person can recompute it. */
export function totalDigest(entries: EntryDigest[]): string {
  const listing = createHash('sha256');
  for (const e of entries) listing.update(`${e.sha256}  ${e.name}\n`);
  return listing.digest('hex');
}

export function digestOf(name: string, body: Uint8Array): EntryDigest {
  return { name, bytes: body.length, sha256: sha256(body) };
}
