import { chunkerVersion, chunkerVersionOf, parseChunkerVersions } from '../chunk/version.js';
import type { MarkReason } from '../store/blob-state.js';
import { readFields } from '../store/chunk-batch.js';
import { REF_FIELDS } from '../store/chunk-columns.js';
import type { ChunkReader, ContentStore } from '../store/contract.js';
import type { StoreMeta } from '../store/meta.js';
import { chunkId } from './chunk-id.js';

/*
 * When one language's chunking changes, only its files are chunked and embedded again. A store whose metadata
 * records other chunker versions than this ocrag's (with the same base version: another base clears the whole
 * index) may hold chunks made by a language's older chunker. A writer that opens such a store first drops them,
 * so every chunk left is one this ocrag would make: their blobs are then unknown to the store, and the next index
 * run embeds them again (manifests of other chunker versions don't vouch for their blobs). The metadata records
 * the new versions only once an index run has done that (`finishChunkerUpgrade` in open-store.ts), and so starts
 * a new store generation: search caches, which may hold the dropped chunks or the absence of their blobs' new
 * ones, are rebuilt then.
 */

export interface UpgradeOptions {
  onNotice?: (message: string) => void;
}

/**
 * Drops the stored chunks of other chunker versions while the store's metadata is behind, and the marks a format's
 * reader gave under another revision; returns how many chunks went.
 */
export async function dropOutdatedChunks(store: ChunkReader & ContentStore, meta: StoreMeta | null, opts: UpgradeOptions = {}): Promise<number> {
  if (!meta || meta.chunkerVersion === chunkerVersion()) return 0;
  await dropStaleMarks(store, meta, opts);
  const outdated = await outdatedChunks(store, meta);
  if (outdated.ids.length === 0) return 0;
  opts.onNotice?.(`ocrag: the chunker changed for ${[...outdated.languages].sort().join(', ')} (${meta.chunkerVersion} → ${chunkerVersion()}); re-indexing those files once`);
  return store.deleteChunks(outdated.ids);
}

/**
 * The marks a format's reader gives (chunk/pdf.ts: a file taken for a PDF that it could not read): a verdict of that
 * reader's revision, so when the revision changes the blobs are read again. A mark says nothing of the language
 * of the file, so the reasons name the reader.
 */
const READER_MARKS: Readonly<Record<string, readonly MarkReason[]>> = { pdf: ['unreadable', 'encrypted', 'too many pages'] };

/** The mark reasons that an index recorded with these chunker versions gave by another reader's revision than this ocrag's. */
export function staleMarkReasons(recorded: string): ReadonlySet<MarkReason> {
  const theirs = parseChunkerVersions(recorded);
  const stale = new Set<MarkReason>();
  for (const [format, reasons] of Object.entries(READER_MARKS)) {
    if (chunkerVersionOf(format, theirs) !== chunkerVersionOf(format)) for (const reason of reasons) stale.add(reason);
  }
  return stale;
}

async function dropStaleMarks(store: ChunkReader & ContentStore, meta: StoreMeta, opts: UpgradeOptions): Promise<void> {
  const stale = staleMarkReasons(meta.chunkerVersion);
  if (stale.size === 0) return;
  const marked = [...(await store.blobState())].filter(([, state]) => stale.has(state as MarkReason)).map(([blob]) => blob);
  if (marked.length === 0) return;
  opts.onNotice?.(`ocrag: how a PDF is told changed (${meta.chunkerVersion} → ${chunkerVersion()}); reading ${marked.length} file(s) skipped as unreadable PDFs again`);
  await store.deleteBlobs(marked);
}

/**
 * Chunks whose id is not the one this ocrag gives their blob, span and language's chunker version, with their
 * blobs and languages; none while the store's metadata records this ocrag's versions.
 */
export async function outdatedChunks(store: ChunkReader, meta: StoreMeta): Promise<{ ids: string[]; blobs: Set<string>; languages: Set<string> }> {
  const ids: string[] = [];
  const blobs = new Set<string>();
  const languages = new Set<string>();
  if (meta.chunkerVersion === chunkerVersion()) return { ids, blobs, languages };
  const { modelId } = meta;
  const versions = new Map<string, string>();
  for await (const batch of store.chunkColumns(null, REF_FIELDS)) {
    const { id, blob, startLine, endLine, language } = readFields(batch, REF_FIELDS);
    for (let i = 0; i < batch.numRows; i++) {
      const lang = language(i);
      let version = versions.get(lang);
      if (version === undefined) versions.set(lang, (version = chunkerVersionOf(lang)));
      const chunk = id(i);
      if (chunk === chunkId(blob(i), version, modelId, startLine(i), endLine(i))) continue;
      ids.push(chunk);
      blobs.add(blob(i));
      languages.add(lang);
    }
  }
  return { ids, blobs, languages };
}
