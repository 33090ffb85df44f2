import fs from 'node:fs';
import path from 'node:path';
import { shownPath } from '../git/path-key.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { OcragError } from '../util/errors.js';
import { readJson } from '../util/json-file.js';
import { fileNameFor } from './file-name.js';
import type { SkipReason } from './manifest.js';

/**
 * Sources: folders and files outside what git tracks that a user added (`ocrag add`), searched beside the tree.
 * The list is the user's (kept when the index is cleared); each source's last scan is derived (cleared with it):
 * path → size, mtime and blob id, so a re-scan stats every file and hashes only those that changed.
 */
export interface SourceSpec {
  /** What results call it: `design-docs:auth/tokens.md`. */
  name: string;
  /** Absolute path of the folder or file. */
  root: string;
  addedAt: string;
  /** The most bytes of files indexed from it (`ocrag add --max-size`); unset: the config's `maxSourceMB`. */
  maxBytes?: number;
}

/** The name of a plain folder's own files as a source (index/folder.ts): none, they are shown by their path. */
export const FOLDER_SOURCE = '';

export interface ScannedFile {
  size: number;
  mtimeMs: number;
  /** Git's blob id of the bytes: the store's key, the same as the tree's for the same content. */
  blob: string;
}

export interface SourceScan {
  version: 1;
  /** Path inside the source (`/`-separated) → what the last scan found. */
  files: Record<string, ScannedFile>;
  /** Path inside the source → why the view left it out (too large, binary, past the source's size limit…). */
  skipped?: Record<string, SkipReason>;
}

/** A source name: what a result path starts with, so no `:` or `/`. */
const NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,63}$/u;

export function checkSourceName(name: string): string {
  if (!NAME.test(name)) throw new OcragError(`invalid source name "${name}": use letters, digits, ".", "_" or "-" (at most 64), e.g. --name design-docs`);
  return name;
}

export function readSources(file: string): SourceSpec[] {
  const raw = readJson<{ sources?: unknown }>(file);
  if (raw === undefined) {
    if (fs.existsSync(file)) throw new OcragError(`the source list ${file} is unreadable: fix or delete it`);
    return [];
  }
  const list = Array.isArray(raw.sources) ? raw.sources : [];
  return list.filter(
    (s): s is SourceSpec => !!s && typeof s.name === 'string' && NAME.test(s.name) && typeof s.root === 'string' && path.isAbsolute(s.root) && (s.maxBytes === undefined || (Number.isInteger(s.maxBytes) && s.maxBytes > 0)),
  );
}

export function writeSources(file: string, sources: SourceSpec[]): void {
  writeFileAtomic(file, JSON.stringify({ sources }, null, 2) + '\n');
}

function scanFile(dir: string, name: string): string {
  // `_` starts no source name (NAME), so the folder's own scan never meets one.
  return path.join(dir, `${name === FOLDER_SOURCE ? '_folder' : fileNameFor('', name)}.json`);
}

export function readSourceScan(dir: string, name: string): SourceScan {
  const scan = readJson<SourceScan>(scanFile(dir, name));
  return scan?.version === 1 && scan.files && typeof scan.files === 'object' ? scan : { version: 1, files: {} };
}

export function writeSourceScan(dir: string, name: string, scan: SourceScan): void {
  fs.mkdirSync(dir, { recursive: true });
  writeFileAtomic(scanFile(dir, name), JSON.stringify(scan) + '\n', { durable: false });
}

export function removeSourceScan(dir: string, name: string): void {
  fs.rmSync(scanFile(dir, name), { force: true });
}

// The globs a path glob stands for, sources considered: `docs:**` means every file of the source `docs`, but `**`
// glued to `docs:` is one path segment's `*` to a glob matcher, so `docs:*/**` is matched too.
export function sourceAwareGlobs(glob: string): string[] {
  return /^[^/*?[\]{}]+:\*\*(\/|$)/.test(glob) ? [glob, glob.replace(':**', ':*/**')] : [glob];
}

/** How many of a view's paths (keys) are files of the source `name`: `name:<path inside it>` as people read them. */
export function sourceFileCount(paths: Iterable<string>, name: string): number {
  let n = 0;
  for (const p of paths) if (shownPath(p).startsWith(`${name}:`)) n++;
  return n;
}

/** Every blob the last scans of these sources found: gc keeps their chunks as it keeps a manifest's. */
export function sourceBlobs(dir: string, names: string[]): Set<string> {
  const out = new Set<string>();
  for (const name of names) for (const f of Object.values(readSourceScan(dir, name).files)) if (f.blob) out.add(f.blob);
  return out;
}
