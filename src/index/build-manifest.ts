import { chunkerVersion } from '../chunk/version.js';
import type { BlobState } from '../store/blob-state.js';
import { placeFiles, type Manifest, type SkipReason } from '../store/manifest.js';
import { selectionKey } from './manifest-state.js';
import type { IndexContext } from './index-context.js';
import type { Selection } from './select.js';

/** The manifest of a commit's selected files, each placed by what is known of its blob (chunks, or why it is skipped). */
export function buildManifest(ctx: IndexContext, branch: string | null, commit: string, tree: string, modelId: string, selection: Selection, known: ReadonlyMap<string, BlobState>): Manifest {
  const files: Record<string, string> = {};
  const skipped: Record<string, SkipReason> = {};
  const skippedBlobs: Record<string, string> = {};
  for (const s of selection.skipped) skipped[s.path] = s.reason;
  placeFiles(selection.files, known, { files, skipped, skippedBlobs });
  return {
    version: 1,
    branch,
    commit,
    tree,
    modelId,
    chunkerVersion: chunkerVersion(),
    selectionKey: selectionKey(ctx.config),
    indexedAt: new Date().toISOString(),
    files,
    skipped,
    skippedBlobs,
  };
}
