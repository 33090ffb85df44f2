import { chunkFile, type Chunk } from '../chunk/index.js';
import { pdfChunks } from '../chunk/pdf.js';
import { shownPath } from '../git/path-key.js';
import type { MarkReason } from '../store/blob-state.js';
import { classifyContent } from './select.js';

/** A blob's chunks from its bytes, or the reason it yields none: text is chunked (its language told by the name `path` keys), a PDF read page by page. */
export async function chunksOfBlob(path: string, bytes: Buffer | null, maxLineChars: number): Promise<{ chunks: Chunk[] } | { reason: MarkReason }> {
  const content = bytes ? classifyContent(bytes, maxLineChars) : { reason: 'binary' as const };
  if ('reason' in content) return content;
  const chunks = 'pdf' in content ? await pdfChunks(bytes!) : await chunkFile(shownPath(path), content.text, { maxLineChars });
  if ('reason' in chunks) return chunks;
  return chunks.length ? { chunks } : { reason: 'empty' };
}
