import fs from 'node:fs';
import path from 'node:path';
import type { Embedder } from '../embed/index.js';
import { folderFiles } from '../git/folder-files.js';
import { blobIdOf } from '../git/blob-id.js';
import { keyFsPath, pathKey, prefixedKey } from '../git/path-key.js';
import type { TreeEntry } from '../git/tree.js';
import { placeFiles, type Manifest } from '../store/manifest.js';
import { FOLDER_SOURCE, readSourceScan, writeSourceScan, type ScannedFile, type SourceScan, type SourceSpec } from '../store/sources.js';
import type { StoreHandle } from '../store/store-handle.js';
import type { BlobState } from '../store/blob-state.js';
import { readRegularFile } from '../util/read-regular.js';
import type { BlobProgress } from './progress.js';
import type { IndexContext } from './index-context.js';
import type { Selection } from './select.js';

/** Beyond this size a source file is not even read: the selection skips it as `too large` (PDFs have 32 MB). */
const READ_LIMIT = 32 * 1024 * 1024;

/** Where one source's file lives and what it is, as a scan found it. */
interface SourceFile {
  /** The path results show: `<source>:<path inside it>` (a plain folder's own files: the path inside it), a key (`path-key.ts`). */
  shown: string;
  /** The path inside the source, a key. */
  rel: string;
  /** Where the file is, exact to the byte (a Buffer for a name that is not UTF-8). */
  absolute: string | Buffer;
  entry: TreeEntry;
}

export interface SourcesView {
  view: Manifest;
  /** Shown path → absolute path as a key, for results that name a source file (not a plain folder's own: its paths are its). */
  absolute: Map<string, string>;
  /** Distinct contents this scan read and chunked, and the chunks of them it embedded. */
  newBlobs: number;
  chunksEmbedded: number;
}

/**
 * Lays the sources over a view: every file of every source as it is now on disk, under `<name>:<path>`. A scan
 * stats each file and hashes only those whose size or mtime changed since the last scan; contents the store lacks
 * are embedded (by blob, as the tree's are, so a file present in two sources, or in the tree, is embedded once).
 * Deleted files simply stop being there. Sources under the index's config are selected by its rules (secrets,
 * binaries, size), not by its include/exclude globs, which speak of the tree's paths (a plain folder's own files
 * are its tree: the globs apply to them); past a source's size limit
 * (`--max-size`, else `maxSourceMB`) its further files, in path order, are skipped.
 */
export async function withSources(ctx: IndexContext, view: Manifest, sources: SourceSpec[], store: StoreHandle, embedder: Embedder, onProgress?: (p: BlobProgress) => void): Promise<SourcesView> {
  const absolute = new Map<string, string>();
  if (sources.length === 0) return { view, absolute, newBlobs: 0, chunksEmbedded: 0 };
  const { selectFiles } = await import('./select.js');
  const scans = new Map<SourceSpec, { files: SourceFile[]; scan: SourceScan; last: SourceScan }>();
  for (const source of sources) scans.set(source, await scanSource(ctx, source));
  const scanned = [...scans.values()].flatMap((s) => s.files);
  // A plain folder's own files are its tree: the globs speak of their paths. Other sources' paths are not the tree's.
  const entriesOf = (own: boolean) => [...scans].flatMap(([source, s]) => ((source.name === FOLDER_SOURCE) === own ? s.files.map((f) => f.entry) : []));
  const ownSelection = selectFiles(entriesOf(true), ctx.config);
  const otherSelection = selectFiles(entriesOf(false), { ...ctx.config, include: [], exclude: [] });
  const selection = withinSizeLimits({ files: [...ownSelection.files, ...otherSelection.files], skipped: [...ownSelection.skipped, ...otherSelection.skipped] }, sources, scans, ctx.config.maxSourceMB);
  const byShown = new Map(scanned.map((f) => [f.shown, f]));
  const known = new Map<string, BlobState>();
  const wanted = [...new Set(selection.files.map((f) => f.blob))];
  if (wanted.length) for (const [blob, state] of await (await store.get()).blobState(wanted)) known.set(blob, state);
  // Named by their path inside the source: the chunker tells a file's language by its name.
  const toEmbed = [...new Map(selection.files.filter((f) => !known.has(f.blob)).map((f) => [f.blob, { path: byShown.get(f.path)!.rel, blob: f.blob }])).values()];
  const fileOfBlob = new Map(selection.files.map((f) => [f.blob, byShown.get(f.path)!.absolute]));
  let chunksEmbedded = 0;
  if (toEmbed.length) {
    const { embedBlobs } = await import('./embed-blobs.js');
    const result = await embedBlobs(await store.get(), embedder, toEmbed, async (b) => blobAt(fileOfBlob.get(b.blob)!, b.blob), { maxLineChars: ctx.config.maxLineChars, onProgress });
    for (const m of result.marks) known.set(m.blob, m.reason);
    for (const b of toEmbed) if (!known.has(b.blob)) known.set(b.blob, 'chunks');
    chunksEmbedded = result.embedded;
  }
  const files = { ...view.files };
  const skipped = { ...view.skipped };
  const skippedBlobs = { ...view.skippedBlobs };
  for (const s of selection.skipped) skipped[s.path] = s.reason;
  placeFiles(selection.files, known, { files, skipped, skippedBlobs });
  for (const [source, { files: found, scan, last }] of scans) {
    // What the view left out of each source, and why, is kept with its scan: `ocrag status` and `list` show it.
    scan.skipped = {};
    for (const f of found) if (f.shown in skipped) scan.skipped[f.rel] = skipped[f.shown]!;
    // A search over unchanged sources finds the scan it read: rewriting it would cost a file write per source per search.
    if (JSON.stringify(scan) !== JSON.stringify(last)) writeSourceScan(ctx.layout.sourceScans, source.name, scan);
    if (source.name !== FOLDER_SOURCE) for (const f of found) absolute.set(f.shown, typeof f.absolute === 'string' ? f.absolute : pathKey(f.absolute));
  }
  return { view: { ...view, files, skipped, skippedBlobs }, absolute, newBlobs: toEmbed.length, chunksEmbedded };
}

/** Past a source's size limit, its further selected files (in path order) are skipped: the run goes on without them. */
function withinSizeLimits(selection: Selection, sources: SourceSpec[], scans: Map<SourceSpec, { files: SourceFile[] }>, maxSourceMB: number): Selection {
  const over = new Set<string>();
  const selected = new Set(selection.files.map((f) => f.path));
  for (const source of sources) {
    const limit = source.maxBytes ?? maxSourceMB * 1024 * 1024;
    let total = 0;
    for (const f of scans.get(source)!.files) {
      if (!selected.has(f.shown)) continue;
      total += f.entry.size;
      if (total > limit) over.add(f.shown);
    }
  }
  if (over.size === 0) return selection;
  return { files: selection.files.filter((f) => !over.has(f.path)), skipped: [...selection.skipped, ...[...over].map((p) => ({ path: p, reason: 'source size limit' as const }))] };
}

/** The files of one source now, their blob ids reused from the last scan where size and mtime are unchanged. */
async function scanSource(ctx: IndexContext, source: SourceSpec): Promise<{ files: SourceFile[]; scan: SourceScan; last: SourceScan }> {
  const next: SourceScan = { version: 1, files: {} };
  const last = readSourceScan(ctx.layout.sourceScans, source.name);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(source.root);
  } catch {
    // A source that is gone (an unmounted drive, a deleted folder) holds nothing until it is back.
    return { files: [], scan: next, last };
  }
  const single = stat.isFile();
  // Another repository's checkout is listed by its own git (git/folder-files.ts), never asked for its status: status
  // runs the filters and the fsmonitor program its config names, and a source is what it holds, hostile.
  const rels = single ? [pathKey(Buffer.from(path.basename(source.root)))] : stat.isDirectory() ? await folderFiles(source.root, ctx.layout.walkGit) : [];
  const prefix = source.name === FOLDER_SOURCE ? '' : `${source.name}:`;
  const out: SourceFile[] = [];
  for (const rel of rels) {
    const absolute = single ? source.root : keyFsPath(source.root, rel);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(absolute);
    } catch {
      continue;
    }
    if (!st.isFile()) continue;
    const before = last.files[rel];
    const same = before && before.size === st.size && before.mtimeMs === st.mtimeMs;
    let blob = same ? before.blob : '';
    if (!same && st.size <= READ_LIMIT) {
      const read = readRegularFile(absolute, READ_LIMIT);
      if (!read) continue;
      // Grown past the limit since the stat: too big to read, as the stat would have said.
      blob = read.size <= READ_LIMIT ? blobIdOf(read.bytes) : '';
    }
    const scannedFile: ScannedFile = { size: st.size, mtimeMs: st.mtimeMs, blob };
    next.files[rel] = scannedFile;
    const shown = prefixedKey(prefix, rel);
    out.push({ shown, rel, absolute, entry: { path: shown, blob, kind: 'file', size: st.size } });
  }
  return { files: out, scan: next, last };
}

/** The file's bytes if they still are the blob the scan found (an edit since then is seen by the next scan). */
function blobAt(file: string | Buffer, blob: string): Buffer | null {
  const read = readRegularFile(file, READ_LIMIT);
  return read && blobIdOf(read.bytes) === blob ? read.bytes : null;
}
