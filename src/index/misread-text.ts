import { BlobReader } from '../git/blobs.js';
import { readFields } from '../store/chunk-batch.js';
import type { ChunkReader, ContentStore } from '../store/contract.js';
import { listManifests, readManifest, removeManifest } from '../store/manifest.js';
import { readMeta, readsTextAsBefore, TEXT_DECODING, writeMeta } from '../store/meta.js';
import { legacyChineseText } from '../text/legacy-encoding.js';
import type { IndexContext } from './index-context.js';

/**
 * A store from before files saved in GBK were read as Chinese (text/legacy-encoding.ts) holds their chunks as
 * UTF-8 with U+FFFD for every Chinese character, and their blobs count as indexed, so nothing would read them
 * again. Once per store, a writer that opened it finds them (a chunk with U+FFFD whose blob reads as GBK now),
 * drops their chunks and every manifest naming them, and starts a new store generation so that no search snapshot
 * keeps the old text; the run indexes them again as any new blob. Returns how many blobs went. The store's record
 * says when it is done (`decoding`), so the scan of the stored texts (~0.3 s on tokio's 14,778 chunks) is paid once.
 */
export async function rereadMisreadText(ctx: Pick<IndexContext, 'repo' | 'layout'>, store: ChunkReader & ContentStore, onNotice?: (message: string) => void): Promise<number> {
  const meta = readMeta(ctx.layout.meta);
  if (!meta || !readsTextAsBefore(meta)) return 0;
  const suspects = new Set<string>();
  for await (const batch of store.chunkColumns(null, ['blob', 'text'])) {
    const { blob, text } = readFields(batch, ['blob', 'text']);
    for (let i = 0; i < batch.numRows; i++) if (text(i).includes('\uFFFD')) suspects.add(blob(i));
  }
  const misread = await readAsChinese(ctx.repo.root, suspects);
  let done = meta;
  if (misread.size) {
    onNotice?.(`ocrag: files saved in GBK are read as Chinese now; indexing ${misread.size} of them again`);
    // Manifests and generation before the chunks: killed in between, the next writer finds the same blobs by their
    // text again; killed after, no manifest names a blob whose chunks went and no snapshot keeps their old text.
    for (const key of listManifests(ctx.layout.manifests)) {
      const manifest = readManifest(ctx.layout.manifests, key);
      if (manifest && Object.values(manifest.files).some((blob) => misread.has(blob))) removeManifest(ctx.layout.manifests, key);
    }
    writeMeta(ctx.layout.meta, (done = { ...meta, createdAt: new Date().toISOString() }));
    await store.deleteBlobs([...misread]);
  }
  writeMeta(ctx.layout.meta, { ...done, decoding: TEXT_DECODING });
  return misread.size;
}

/** Which of these blobs git holds as GBK Chinese (a source's file, which git does not hold, is left as it is). */
async function readAsChinese(root: string, blobs: Set<string>): Promise<Set<string>> {
  const found = new Set<string>();
  if (blobs.size === 0) return found;
  const reader = new BlobReader(root);
  try {
    // Each blob's bytes are let go once read, not all held until the last arrives (a store of Latin-1 files has many).
    const read = [...blobs].map((blob) => reader.read(blob).then((bytes) => bytes !== null && legacyChineseText(bytes) !== null && found.add(blob), () => undefined));
    await Promise.all(read);
  } finally {
    await reader.close();
  }
  return found;
}
