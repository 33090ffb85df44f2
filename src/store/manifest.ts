import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { parseMarkReason, type BlobState, type ContentSkipReason } from './blob-state.js';
import { fileNameFor } from './file-name.js';
import type { IndexIdentity } from './identity.js';

/** Why a path is not indexed; shown by `status` and `index --dry-run`. */
export type SkipReason =
  | 'symlink'
  | 'submodule'
  | 'excluded'
  | 'not included'
  | 'too large'
  | 'lock file'
  | 'generated'
  | 'secret'
  | 'not fetched'
  | 'source size limit'
  | ContentSkipReason;

/** What one branch (or detached commit) was indexed at: the only place where paths live. */
export interface Manifest extends Pick<IndexIdentity, 'modelId' | 'chunkerVersion'> {
  version: 1;
  /** Branch name, or null for a detached HEAD. */
  branch: string | null;
  commit: string;
  tree: string;
  /** Hash of the settings that decide which files are indexed; a change forces a fresh selection. */
  selectionKey: string;
  indexedAt: string;
  /** Indexed path → blob SHA. */
  files: Record<string, string>;
  /** Path → why it is not indexed. */
  skipped: Record<string, SkipReason>;
  /** Path → blob, for paths skipped for their content (binary, minified…): the verdict is reused by blob. */
  skippedBlobs: Record<string, string>;
}

/** File name of a manifest: branches by name (encoded, since names contain "/"), detached HEADs by commit. */
export function manifestKey(branch: string | null, commit: string): string {
  return branch ? fileNameFor('branch-', branch) : `detached-${commit}`;
}

export function readManifest(dir: string, key: string): Manifest | null {
  const file = path.join(dir, `${key}.json`);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const m = JSON.parse(text) as Manifest;
    if (m.version !== 1 || typeof m.files !== 'object' || typeof m.skipped !== 'object' || typeof m.skippedBlobs !== 'object' || typeof m.tree !== 'string') return null;
    return m;
  } catch {
    // A torn or hand-edited manifest is treated as absent: the next index run rewrites it.
    return null;
  }
}

export function writeManifest(dir: string, key: string, manifest: Manifest): void {
  writeFileAtomic(path.join(dir, `${key}.json`), JSON.stringify(manifest));
}

export function removeManifest(dir: string, key: string): void {
  fs.rmSync(path.join(dir, `${key}.json`), { force: true });
}

export function listManifests(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  } catch {
    return [];
  }
}

/** Blob → every path it appears at in the manifest (a blob can live at many paths). */
export function pathsByBlob(manifest: Manifest): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [p, blob] of Object.entries(manifest.files)) {
    const list = map.get(blob);
    if (list) list.push(p);
    else map.set(blob, [p]);
  }
  return map;
}

/** Blob → "chunks" or the reason it yields none, as far as a manifest tells (its blobs are all stored). */
export function knownBlobs(manifest: Manifest, into = new Map<string, BlobState>()): Map<string, BlobState> {
  for (const blob of Object.values(manifest.files)) into.set(blob, 'chunks');
  for (const [path, blob] of Object.entries(manifest.skippedBlobs)) into.set(blob, parseMarkReason(manifest.skipped[path] ?? 'binary'));
  return into;
}

/**
 * Files the selection kept, placed by what is known of their blob: with chunks (or blank) they are indexed;
 * read and found binary, minified… they are skipped with that reason, and their blob is remembered.
 */
export function placeFiles(
  files: { path: string; blob: string }[],
  known: ReadonlyMap<string, BlobState>,
  into: Pick<Manifest, 'files' | 'skipped' | 'skippedBlobs'>,
): void {
  for (const f of files) {
    const state = known.get(f.blob);
    if (state && state !== 'chunks' && state !== 'empty') {
      into.skipped[f.path] = state;
      into.skippedBlobs[f.path] = f.blob;
    } else into.files[f.path] = f.blob;
  }
}
