import { prefixedKey } from '../git/path-key.js';
import { viewSources } from '../index/folder.js';
import type { IndexContext } from '../index/index-context.js';
import { currentManifest } from '../index/manifest-state.js';
import { asStoreDamage } from '../store/damage.js';
import { readMeta } from '../store/meta.js';
import { openStore, storeExists } from '../store/open-store.js';
import { readSourceScan, type SourceScan, type SourceSpec } from '../store/sources.js';

/**
 * What search sees of the index as built, the one meaning of "files" and "chunks" every surface shows (status,
 * doctor, the panel, MCP's index_status, a finished task): `files` the paths of HEAD's manifest (a plain
 * folder's own files) and of the added sources as last scanned; `chunks` their chunks, each path counting its
 * content's, as `ocrag list --committed-only` lists them. Uncommitted edits are not in it: `ocrag list` shows them.
 */
export interface IndexCounts {
  files: number;
  chunks: number;
}

/** The view's sources, each with its last scan. */
export function viewScans(ctx: IndexContext): { spec: SourceSpec; scan: SourceScan }[] {
  return viewSources(ctx).map((spec) => ({ spec, scan: readSourceScan(ctx.layout.sourceScans, spec.name) }));
}

/**
 * Path → blob of every file counted in IndexCounts (keys as search results show them), from HEAD's manifest and
 * the sources' scans (read here unless the caller read them already).
 */
export function indexedFiles(ctx: IndexContext, manifest = currentManifest(ctx), scans = viewScans(ctx)): Map<string, string> {
  const files = new Map(Object.entries(manifest?.files ?? {}));
  for (const { spec, scan } of scans) {
    const prefix = spec.name ? `${spec.name}:` : '';
    for (const [rel, blob] of searchedFiles(scan)) files.set(prefixedKey(prefix, rel), blob);
  }
  return files;
}

/** The counts of these files, given the store's chunks of each blob (`ChunkReader.chunkCounts`). */
export function countsOf(files: Map<string, string>, chunkCounts: Map<string, number>): IndexCounts {
  let chunks = 0;
  for (const blob of files.values()) chunks += chunkCounts.get(blob) ?? 0;
  return { files: files.size, chunks };
}

/** The files of a source's last scan that the view kept: rel path → blob. */
export function searchedFiles(scan: SourceScan): [string, string][] {
  return Object.entries(scan.files).filter(([rel]) => !scan.skipped?.[rel]).map(([rel, f]) => [rel, f.blob]);
}

/** The counts of the index as it is on disk now (the store opened to count each blob's chunks); zeros before any. */
export async function indexCountsNow(ctx: IndexContext): Promise<IndexCounts> {
  const files = indexedFiles(ctx);
  const meta = readMeta(ctx.layout.meta);
  // No file, nothing to count: a run that selected none ends without opening the store.
  if (files.size === 0 || !meta || !storeExists(ctx.layout)) return countsOf(files, new Map());
  const store = await openStore(ctx.layout, meta.dim, { create: false });
  try {
    return countsOf(files, await store.chunkCounts());
  } catch (e) {
    throw asStoreDamage(e, ctx.layout.tables);
  } finally {
    store.close();
  }
}

/** A finished run's summary with the counts every surface shows for the index it left (as it was, if they cannot be read). */
export function withIndexCounts<S extends object>(ctx: IndexContext, summary: S): Promise<S | (S & { counts: IndexCounts })> {
  return indexCountsNow(ctx).then((counts) => ({ ...summary, counts }), () => summary);
}
