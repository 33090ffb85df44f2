import { cachedModelDir, installModel, isCompleteModelFolder, readManifest } from './model-cache.js';
import { recipeFingerprint } from '../recipe/fingerprint.js';

import { DEFAULT_MODEL_ID } from './model-ids.js';

export { DEFAULT_MODEL_ID };

export interface BuildOptions {
  onProgress?: (message: string) => void;
  /** Rebuild and atomically replace an installed copy; otherwise an installed copy is reused. */
  force?: boolean;
}

/** Builds the default model into the cache (about 10 s) and returns its folder. */
export function buildDefaultModel(options: BuildOptions = {}): Promise<string> {
  return installModel(DEFAULT_MODEL_ID, async (dir) => (await import('../recipe/distil.js')).writeDistilledModel(dir, DEFAULT_MODEL_ID, options.onProgress), {
    replace: options.force,
    isComplete: isDefaultModelFolder,
  });
}

/** Complete and built by the current recipe; anything else in its place gets rebuilt. */
export function isDefaultModelFolder(dir: string): boolean {
  const manifest = readManifest(dir);
  return manifest?.name === DEFAULT_MODEL_ID && manifest.recipeFingerprint === recipeFingerprint() && isCompleteModelFolder(dir);
}

export interface EnsureOptions {
  /** Receives the one-line notices; defaults to stderr. */
  log?: (line: string) => void;
}

/** Returns the default model's folder, building it on first use (once per cache). */
export async function ensureDefaultModel(options: EnsureOptions = {}): Promise<string> {
  const dir = cachedModelDir(DEFAULT_MODEL_ID);
  if (isDefaultModelFolder(dir)) return dir;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return installModel(
    DEFAULT_MODEL_ID,
    async (tmpDir) => {
      log('ocrag: building the default embedding model (one time, ~10 s)…');
      await (await import('../recipe/distil.js')).writeDistilledModel(tmpDir, DEFAULT_MODEL_ID);
    },
    {
      isComplete: isDefaultModelFolder,
      onWait: () => log('ocrag: waiting for another ocrag process to finish building the default embedding model…'),
    },
  );
}
