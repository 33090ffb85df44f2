/** Why a file's content is not indexed: found by reading its blob, so the verdict holds for the blob anywhere. */
export type ContentSkipReason = 'binary' | BinarySkipReason | 'lfs pointer' | 'minified' | PdfSkipReason;

/** The kinds of binary file told by their first bytes (index/magic.ts), whatever their name. */
export const BINARY_KINDS = ['zip', 'office document', 'gzip', 'bzip2', 'xz', '7z', 'zstd', 'png', 'jpeg', 'gif', 'webp', 'sqlite', 'elf', 'wasm', 'ole'] as const;
export type BinaryKind = (typeof BINARY_KINDS)[number];
/** `binary (png)`: what the file is, where its first bytes say. */
export type BinarySkipReason = `binary (${BinaryKind})`;

/** Why a PDF's text is not indexed (see chunk/pdf.ts). */
export type PdfSkipReason = 'encrypted' | 'unreadable' | 'too many pages';

/** Why a blob that was read yields no chunks: its content is skipped, or it is blank. */
export type MarkReason = ContentSkipReason | 'empty';

/** What the index knows of a blob: its chunks are stored, or it was read and yields none (it has a mark). */
export type BlobState = 'chunks' | MarkReason;

const MARK_REASONS: ReadonlySet<string> = new Set<MarkReason>(['binary', 'lfs pointer', 'minified', 'empty', 'encrypted', 'unreadable', 'too many pages', ...BINARY_KINDS.map((k): BinarySkipReason => `binary (${k})`)]);

export function isMarkReason(value: unknown): value is MarkReason {
  return typeof value === 'string' && MARK_REASONS.has(value);
}

/**
 * A mark's reason as stored (the marks table holds plain strings): one this ocrag writes, else "binary", which
 * says no more than the mark itself does: the blob was read and yields no chunks.
 */
export function parseMarkReason(stored: string): MarkReason {
  return isMarkReason(stored) ? stored : 'binary';
}
