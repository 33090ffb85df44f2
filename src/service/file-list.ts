import picomatch from 'picomatch';
import { pathFields, shownPath } from '../git/path-key.js';
import type { IndexContext } from '../index/index-context.js';
import { asStoreDamage } from '../store/damage.js';
import type { Manifest } from '../store/manifest.js';
import { readMeta } from '../store/meta.js';
import { openStore, storeExists } from '../store/open-store.js';
import { sourceAwareGlobs } from '../store/sources.js';
import { OcragError, INDEX_RUN } from '../util/errors.js';
import { listSources } from './sources.js';

/**
 * Where a listed file's content comes from: HEAD as indexed, the work tree that search sees on top of it, an added
 * source, a plain folder's own files (`folder`); `skipped`: a source's file left out, with its reason.
 */
export type FileState = 'committed' | 'modified' | 'untracked' | 'source' | 'folder' | 'skipped';

export interface ListedFile {
  /** As people read it; `quotedPath` beside it when that is not the exact name (as search results have it). */
  path: string;
  quotedPath?: string;
  blob: string;
  chunks: number;
  state: FileState;
  reason?: string;
}

/** HEAD's manifest (a plain folder's own), or the one-line error every lister gives when nothing was indexed. */
export function indexedManifest(ctx: IndexContext): Manifest {
  const manifest = ctx.kind.baseManifest(ctx);
  const where = ctx.kind.match({ git: () => 'for this commit', folder: () => 'in this folder' });
  if (!manifest || !readMeta(ctx.layout.meta) || !storeExists(ctx.layout)) throw new OcragError(`nothing indexed ${where} yet: run "ocrag index"`, 'index', INDEX_RUN);
  return manifest;
}

/** The files of `view` (HEAD's manifest, or it with the work tree laid over) matching `glob`, with their chunk counts and where each comes from. */
export async function listFiles(ctx: IndexContext, manifest: Manifest, view: Manifest, glob?: string): Promise<ListedFile[]> {
  const meta = readMeta(ctx.layout.meta);
  if (!meta) throw new OcragError('nothing indexed for this commit yet: run "ocrag index"', 'index', INDEX_RUN);
  const counts = await openStore(ctx.layout, meta.dim, { create: false })
    .then(async (store) => {
      try {
        return await store.chunkCounts();
      } finally {
        store.close();
      }
    })
    .catch((e) => Promise.reject(asStoreDamage(e, ctx.layout.tables)));
  const match = glob ? picomatch(sourceAwareGlobs(glob), { dot: true }) : () => true;
  const sources = new Set(listSources(ctx).map((s) => `${s.name}:`));
  // A folder's own files are a source without a name: listed as the folder's, each skipped one with its reason.
  const own = ctx.kind.ownSources(ctx).length > 0;
  const isSource = (key: string) => {
    const path = shownPath(key);
    return sources.has(path.slice(0, path.indexOf(':') + 1));
  };
  // Globs match the path as people read it, as `search --path` does.
  const matches = (key: string) => match(shownPath(key));
  const stateOf = (path: string, blob: string): FileState =>
    manifest.files[path] === blob ? 'committed' : path in manifest.files ? 'modified' : isSource(path) ? 'source' : own ? 'folder' : 'untracked';
  const rows: ListedFile[] = Object.entries(view.files)
    .filter(([path]) => matches(path))
    .map(([path, blob]) => ({ ...pathFields(path), blob, chunks: counts.get(blob) ?? 0, state: stateOf(path, blob) }));
  // A source's skipped files follow, each with its reason (past its size limit, too large, binary…): they were asked for.
  for (const [path, reason] of Object.entries(view.skipped)) {
    if (!(path in manifest.skipped) && (own || isSource(path)) && matches(path)) rows.push({ ...pathFields(path), blob: view.skippedBlobs[path] ?? '', chunks: 0, state: 'skipped', reason });
  }
  return rows;
}
