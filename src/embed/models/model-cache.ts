import { existsSync, mkdirSync, promises as fsp, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cacheRoot } from '../../config/environment.js';
import { acquireLock, type FileLock } from '../../util/file-lock.js';
import { readJson } from '../../util/json-file.js';

/** Root of ocrag's per-user cache (models, the Chinese lexicon). */
export const modelCacheDir = cacheRoot;

export function modelsRoot(): string {
  return join(modelCacheDir(), 'models');
}

/** Folder of a cached model; names may contain one `/` (hub style `owner/name`). */
export function cachedModelDir(name: string): string {
  if (!isValidModelName(name)) throw new Error(`invalid model name "${name}"`);
  return join(modelsRoot(), ...name.split('/'));
}

export function isValidModelName(name: string): boolean {
  return /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)?$/.test(name) && !name.includes('..');
}

export const MANIFEST_FILE = 'ocrag-model.json';

/** Files a Transformers.js feature-extraction model folder needs; the ONNX file is the first that exists. */
export const ONNX_CANDIDATES = ['onnx/model.onnx', 'onnx/model_quantized.onnx'] as const;

export function findOnnxFile(dir: string): string | undefined {
  for (const rel of ONNX_CANDIDATES) {
    const file = join(dir, rel);
    if (isNonEmptyFile(file)) return file;
  }
  return undefined;
}

/**
 * A folder is usable when the Transformers.js files exist and, if ocrag wrote a manifest,
 * every listed file still has its recorded size (catches truncated copies and half-built folders).
 */
export function isCompleteModelFolder(dir: string): boolean {
  if (!isNonEmptyFile(join(dir, 'config.json')) || !isNonEmptyFile(join(dir, 'tokenizer.json'))) return false;
  if (!findOnnxFile(dir)) return false;
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath)) return true;
  const manifest = readManifest(dir);
  if (!manifest?.files) return false;
  return Object.entries(manifest.files).every(([rel, info]) => fileSize(join(dir, rel)) === info.bytes);
}

export interface ManifestFileInfo {
  bytes: number;
  sha256?: string;
}

/** `ocrag-model.json`: written last into a model folder by the builder or by `pull`. */
export interface ModelManifest {
  name: string;
  kind: 'static-distilled' | 'pulled';
  createdAt: string;
  files: Record<string, ManifestFileInfo>;
  [extra: string]: unknown;
}

export function readManifest(dir: string): ModelManifest | undefined {
  return readJson<ModelManifest>(join(dir, MANIFEST_FILE));
}

export function fileSize(file: string): number | undefined {
  try {
    return statSync(file).size;
  } catch {
    return undefined;
  }
}

function isNonEmptyFile(file: string): boolean {
  const size = fileSize(file);
  return size !== undefined && size > 0;
}

export interface InstallOptions {
  /** Rebuild even if a complete folder is already installed. */
  replace?: boolean;
  /** Called once if this process has to wait for another process holding the lock. */
  onWait?: () => void;
  /** What counts as an installed, usable folder; defaults to `isCompleteModelFolder`. */
  isComplete?: (dir: string) => boolean;
}

/**
 * Produces a model folder under `<cache>/models/<name>` atomically: `produce` writes into a temp
 * folder on the same filesystem, which is renamed into place only when complete. A per-name lock
 * makes a concurrent second process wait and then reuse the result.
 */
export async function installModel(
  name: string,
  produce: (tmpDir: string) => Promise<void>,
  options: InstallOptions = {},
): Promise<string> {
  const finalDir = cachedModelDir(name);
  const isComplete = options.isComplete ?? isCompleteModelFolder;
  if (!options.replace && isComplete(finalDir)) return finalDir;

  const lock = await lockModel(name, () => !options.replace && isComplete(finalDir), options.onWait);
  if (!lock) return finalDir;
  let tmpDir: string | undefined;
  try {
    if (!options.replace && isComplete(finalDir)) return finalDir;
    const tmpRoot = join(modelsRoot(), '.tmp');
    const tmpPrefix = `${lockName(name)}-`;
    await fsp.mkdir(tmpRoot, { recursive: true });
    await removeLeftovers(tmpRoot, tmpPrefix);
    tmpDir = await fsp.mkdtemp(join(tmpRoot, tmpPrefix));
    await produce(tmpDir);
    if (!isComplete(tmpDir)) throw new Error(`model "${name}" was produced incomplete`);
    await fsp.chmod(tmpDir, 0o755); // mkdtemp makes it private; the cache is shared like any other
    await moveIntoPlace(tmpDir, finalDir);
    tmpDir = undefined;
    return finalDir;
  } finally {
    if (tmpDir) await fsp.rm(tmpDir, { recursive: true, force: true });
    lock.release();
  }
}

/** Temp folders of an earlier run that crashed; safe to remove while holding this name's lock. */
async function removeLeftovers(tmpRoot: string, prefix: string): Promise<void> {
  for (const entry of await fsp.readdir(tmpRoot)) {
    if (entry.startsWith(prefix)) await fsp.rm(join(tmpRoot, entry), { recursive: true, force: true });
  }
}

function lockName(modelName: string): string {
  return modelName.replace(/\//g, '__');
}

async function moveIntoPlace(tmpDir: string, finalDir: string): Promise<void> {
  await fsp.mkdir(dirname(finalDir), { recursive: true });
  if (existsSync(finalDir)) {
    // rename() cannot replace a non-empty directory: move the old one aside first.
    const trash = `${tmpDir}.old`;
    await fsp.rename(finalDir, trash);
    await fsp.rename(tmpDir, finalDir);
    await fsp.rm(trash, { recursive: true, force: true });
  } else {
    await fsp.rename(tmpDir, finalDir);
  }
}

/**
 * A crashed holder's lock is taken over at once when its pid is gone; by its heartbeat (every 6 s) only when the pid
 * lives on in another process, after 60 s. 20 s was too short under load: a busy holder's timer fired late.
 */
const LOCK_STALE_MS = 60_000;
const LOCK_WAIT_LIMIT_MS = 15 * 60_000;

/**
 * Waits for this model name's lock; null when `satisfied()` became true while waiting (someone else did the work).
 * The lock's path is the folder older builds made there, which `util/file-lock` still honours.
 */
async function lockModel(name: string, satisfied: () => boolean, onWait?: () => void): Promise<FileLock | null> {
  const file = join(modelsRoot(), '.locks', `${lockName(name)}.lock`);
  mkdirSync(dirname(file), { recursive: true });
  return acquireLock(file, { timeoutMs: LOCK_WAIT_LIMIT_MS, staleMs: LOCK_STALE_MS, onWait, satisfied });
}
