import picomatch from 'picomatch';
import { currentManifest, type IndexContext } from '../index/context.js';
import { asStoreDamage } from '../store/damage.js';
import type { Manifest } from '../store/manifest.js';
import { readMeta } from '../store/meta.js';
import { openStore, storeExists } from '../store/open-store.js';
import { sourceAwareGlobs } from '../store/sources.js';
import { UsageError } from '../util/errors.js';
import { listSources } from './sources.js';

/** Where a listed file's content comes from: HEAD as indexed, or the work tree that search sees on top of it. */
export type FileState = 'committed' | 'modified' | 'untracked' | 'source';

export interface ListedFile {
  path: string;
  blob: string;
  chunks: number;
  state: FileState;
}

/** HEAD's manifest, or the one-line error every lister gives when this commit was never indexed. */
export function indexedManifest(ctx: IndexContext): Manifest {
  const manifest = currentManifest(ctx);
  if (!manifest || !readMeta(ctx.layout.meta) || !storeExists(ctx.layout)) throw new UsageError('nothing indexed for this commit yet: run "ocrag index"', 4);
  return manifest;
}

/** The files of `view` (HEAD's manifest, or it with the work tree laid over) matching `glob`, with their chunk counts and where each comes from. */
export async function listFiles(ctx: IndexContext, manifest: Manifest, view: Manifest, glob?: string): Promise<ListedFile[]> {
  const meta = readMeta(ctx.layout.meta);
  if (!meta) throw new UsageError('nothing indexed for this commit yet: run "ocrag index"', 4);
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
  const stateOf = (path: string, blob: string): FileState =>
    manifest.files[path] === blob ? 'committed' : path in manifest.files ? 'modified' : sources.has(path.slice(0, path.indexOf(':') + 1)) ? 'source' : 'untracked';
  return Object.entries(view.files)
    .filter(([path]) => match(path))
    .map(([path, blob]) => ({ path, blob, chunks: counts.get(blob) ?? 0, state: stateOf(path, blob) }));
}
