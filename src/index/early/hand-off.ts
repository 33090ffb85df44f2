// What a one-shot search's early answer chunked and embedded, handed to the index run it starts (a process of its
// own, cli/background-index.ts), so the run does not chunk and embed those ~1,000 chunks again (~0.4 s of CPU on
// tokio). The file is trusted only because ocrag wrote it in this same run: the search names its sha256 on the
// run's command line, and the run reads it only when the digest matches, so neither a file a repository brings nor
// one left by another search is ever taken (and `.ocrag/` itself is ocrag's own or refused, store/index-folder.ts).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Chunk } from '../../chunk/types.js';
import { isMarkReason, type MarkReason } from '../../store/blob-state.js';
import { makeIndexFolder } from '../../store/index-folder.js';
import type { IndexLayout } from '../../store/layout.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { readRegularFile } from '../../util/read-regular.js';
import type { HandedChunks, HandOffIdentity } from '../handed-chunks.js';
import type { EmbeddedFiles } from './embed-files.js';
import { removeQuietly } from '../../util/temp-file.js';

export type { HandedChunks } from '../handed-chunks.js';

const FORMAT = 'ocrag-early-chunks/1';
const PREFIX = 'early-chunks-';
/** Far above what an early answer embeds (~2.5 MB on tokio: 512 KB of files); anything bigger is not read. */
const MAX_BYTES = 256 * 2 ** 20;
/** A hand-off its run never took (its search was killed between writing it and starting the run) goes after this. */
const STALE_MS = 10 * 60 * 1000;

type Header = HandOffIdentity & { format: string; blobs: { blob: string; path: string; chunks?: Chunk[]; reason?: string }[]; keys: string[]; terms: string[] };

const fileOf = (layout: IndexLayout, digest: string) => path.join(layout.dir, `${PREFIX}${digest}`);

/**
 * Writes the hand-off into the index folder and returns its digest, for the run's command line; null when there
 * is nothing to hand or it could not be written (the run then chunks and embeds those files itself).
 */
export function writeHandOff(layout: IndexLayout, identity: HandOffIdentity, embedded: EmbeddedFiles): string | null {
  if (!embedded.chunked.length) return null;
  const contents = new Map<string, { vector: Float32Array; terms: string }>();
  for (const r of embedded.rows) if (!contents.has(r.key)) contents.set(r.key, { vector: r.vector, terms: r.terms });
  const blobs = embedded.chunked.map((c) => ({ blob: c.blob, path: c.path, ...c.content }));
  const header: Header = { format: FORMAT, ...identity, blobs, keys: [...contents.keys()], terms: [...contents.values()].map((c) => c.terms) };
  const json = Buffer.from(JSON.stringify(header));
  const start = align4(4 + json.length);
  const body = Buffer.alloc(start + contents.size * identity.dim * 4);
  body.writeUInt32LE(json.length, 0);
  json.copy(body, 4);
  let at = start;
  for (const { vector } of contents.values()) {
    if (vector.length !== identity.dim) return null;
    Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(body, at);
    at += vector.byteLength;
  }
  const digest = createHash('sha256').update(body).digest('hex');
  try {
    // A fresh clone has no index folder yet: made as the run would make it a moment later (the search that opened
    // this context checked that any folder there is ocrag's own, store/index-folder.ts).
    makeIndexFolder(layout);
    // Not flushed to disk: a hand-off lost in a crash only costs its run that work again.
    writeFileAtomic(fileOf(layout, digest), body, { durable: false });
    return digest;
  } catch {
    return null;
  }
}

/**
 * The hand-off named by `digest`, read once (the file is removed whatever it holds) and only when its bytes have
 * that digest; null otherwise. Hand-offs left by runs never started are removed too.
 */
export function takeHandOff(layout: IndexLayout, digest: string): HandedChunks | null {
  removeStaleHandOffs(layout);
  if (!/^[0-9a-f]{64}$/.test(digest)) return null;
  const file = fileOf(layout, digest);
  // Through one descriptor that follows no link and waits on no FIFO (util/read-regular.ts); gone whatever it held.
  const read = readRegularFile(file, MAX_BYTES);
  removeQuietly(file);
  if (!read || read.bytes.length !== read.size) return null;
  const body = read.bytes;
  if (createHash('sha256').update(body).digest('hex') !== digest) return null;
  try {
    return parse(body);
  } catch {
    return null;
  }
}

function parse(body: Buffer): HandedChunks | null {
  const length = body.readUInt32LE(0);
  const header = JSON.parse(body.subarray(4, 4 + length).toString('utf8')) as Header;
  const start = align4(4 + length);
  if (header.format !== FORMAT || header.keys.length !== header.terms.length || body.length !== start + header.keys.length * header.dim * 4) return null;
  // Copied out of the file's buffer: each vector is the store's row value, aligned and its own.
  const vectors = new Float32Array(body.buffer.slice(body.byteOffset + start, body.byteOffset + body.length));
  const contents = new Map(header.keys.map((key, i) => [key, { vector: vectors.subarray(i * header.dim, (i + 1) * header.dim), terms: header.terms[i]! }]));
  const blobs = new Map<string, { path: string; content: { chunks: Chunk[] } | { reason: MarkReason } }>();
  for (const b of header.blobs) {
    const content = b.chunks ? { chunks: b.chunks } : isMarkReason(b.reason) ? { reason: b.reason } : null;
    if (content) blobs.set(b.blob, { path: b.path, content });
  }
  return {
    contents,
    chunksOf: (b) => {
      const found = blobs.get(b.blob);
      return found && found.path === b.path ? found.content : undefined;
    },
    fits: (id) => id.modelId === header.modelId && id.dim === header.dim && id.chunkerVersion === header.chunkerVersion && id.maxLineChars === header.maxLineChars,
  };
}

function removeStaleHandOffs(layout: IndexLayout): void {
  try {
    for (const name of fs.readdirSync(layout.dir)) {
      if (!name.startsWith(PREFIX)) continue;
      const file = path.join(layout.dir, name);
      if (Date.now() - fs.lstatSync(file).mtimeMs > STALE_MS) removeQuietly(file);
    }
  } catch {
    // Gone meanwhile, or unreadable: nothing to clean.
  }
}

const align4 = (n: number) => (n + 3) & ~3;

