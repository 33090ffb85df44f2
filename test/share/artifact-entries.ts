// An artifact taken apart and put back together, as an attacker who rewrites one would: its members as stored
// (gzipped ones still gzipped), and the trailer's digests made consistent again so that only the edit is wrong.
import { digestOf, totalDigest } from '../../src/share/checksum.js';
import { ENTRY } from '../../src/share/format.js';
import { readArtifact } from '../../src/share/tar-read.js';
import { writeTar, type ArtifactEntry } from '../../src/share/tar-write.js';

export async function artifactEntries(file: string): Promise<ArtifactEntry[]> {
  const entries: ArtifactEntry[] = [];
  for await (const e of readArtifact(file)) entries.push({ name: e.name, body: e.stored });
  return entries;
}

/** The trailer's digest of every member, and their total, computed again from the members as they are now. */
export function resealTrailer(entries: ArtifactEntry[]): void {
  const trailerAt = entries.findIndex((e) => e.name === ENTRY.trailer);
  const trailer = JSON.parse(entries[trailerAt]!.body.toString('utf8'));
  trailer.entries = entries.filter((e) => e.name !== ENTRY.trailer).map((e) => digestOf(e.name, e.body));
  trailer.sha256 = totalDigest(trailer.entries);
  entries[trailerAt] = { name: ENTRY.trailer, body: Buffer.from(JSON.stringify(trailer)) };
}

export async function writeArtifactEntries(dst: string, entries: ArtifactEntry[]): Promise<string> {
  await writeTar(
    dst,
    (async function* () {
      yield* entries;
    })(),
    new Date(),
  );
  return dst;
}
