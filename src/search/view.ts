import { createRequire } from 'node:module';
import { shownPath } from '../git/path-key.js';
import type { Manifest } from '../store/manifest.js';
import { sourceAwareGlobs } from '../store/sources.js';
import { fileStem, segmentWords } from '../text/path-words.js';

/** One searchable file of the view, with the words of its path (paths live only in the manifest). */
export interface ViewFile {
  /** The manifest's key of the file (`path-key.ts`): what tells two files apart. */
  path: string;
  /** The path as people read it (the key itself unless it is quoted): what globs, words and path rules look at. */
  display: string;
  blob: string;
  /** Words of the file name without extension (`routerGroup.go` → routergroup, router, group). */
  stemWords: string[];
  /** Words of the directory holding it, then of the directories above (nearest first). */
  dirWords: string[][];
  /** Under an older version directory (`v3/`) while a newer sibling (`v4/`) exists: kept for compatibility. */
  legacy: boolean;
}

/** The files a search may answer from: the manifest's, restricted to a path glob. */
export interface SearchView {
  files: ViewFile[];
  /** Blob → the view's files holding it (a blob may live at several paths). */
  byBlob: Map<string, ViewFile[]>;
  /** Every word of the view's paths (file names and folders), for matching a query's words against. */
  pathWords: Set<string>;
}

const cache = new WeakMap<Manifest, Map<string, SearchView>>();

/** The view of a manifest under a glob; cached per manifest object, as a long-lived server reuses its view. */
export function searchView(manifest: Manifest, pathGlob?: string): SearchView {
  const key = pathGlob ?? '';
  let byGlob = cache.get(manifest);
  if (!byGlob) cache.set(manifest, (byGlob = new Map()));
  let view = byGlob.get(key);
  if (!view) byGlob.set(key, (view = buildView(manifest, pathGlob)));
  return view;
}

function buildView(manifest: Manifest, pathGlob?: string): SearchView {
  const pathOk = pathGlob ? globMatcher(pathGlob.replace(/^\.?\//, '')) : () => true;
  const files: ViewFile[] = [];
  const byBlob = new Map<string, ViewFile[]>();
  // Directories repeat across a tree's paths: their words are worked out once per directory, not per file.
  const dirs = new Map<string, string[][]>();
  const segments = new Map<string, string[]>();
  const words = (segment: string) => {
    let w = segments.get(segment);
    if (!w) segments.set(segment, (w = segmentWords(segment)));
    return w;
  };
  const pathWords = new Set<string>();
  for (const [key, blob] of Object.entries(manifest.files)) {
    const path = shownPath(key);
    if (!pathOk(path)) continue;
    const slash = path.lastIndexOf('/');
    const dirPath = slash < 0 ? '' : path.slice(0, slash);
    let dirWords = dirs.get(dirPath);
    if (!dirWords) {
      dirs.set(dirPath, (dirWords = dirPath ? dirPath.split('/').reverse().map(words) : []));
      for (const word of dirWords.flat()) pathWords.add(word);
    }
    const file: ViewFile = { path: key, display: path, blob, stemWords: words(fileStem(path.slice(slash + 1))), dirWords, legacy: false };
    files.push(file);
    const list = byBlob.get(blob);
    if (list) list.push(file);
    else byBlob.set(blob, [file]);
    for (const word of file.stemWords) pathWords.add(word);
  }
  markLegacyVersions(files);
  return { files, byBlob, pathWords };
}

/** picomatch, loaded when a search has a path glob (most have none, and a one-shot search counts its loads). */
function globMatcher(glob: string): (path: string) => boolean {
  const picomatch = createRequire(import.meta.url)('picomatch') as typeof import('picomatch');
  return picomatch(sourceAwareGlobs(glob), { dot: true });
}

/** Marks files under `…/v<N>/` when the same directory also holds a higher `v<M>/`. */
function markLegacyVersions(files: ViewFile[]): void {
  const newest = new Map<string, number>();
  const versionDirs = (path: string) => [...path.matchAll(/(?:^|\/)v(\d+)\//g)].map((m) => ({ parent: path.slice(0, m.index! + (m[0].startsWith('/') ? 1 : 0)), version: Number(m[1]) }));
  for (const f of files) for (const { parent, version } of versionDirs(f.display)) newest.set(parent, Math.max(newest.get(parent) ?? 0, version));
  if (!newest.size) return;
  for (const f of files) f.legacy = versionDirs(f.display).some(({ parent, version }) => version < newest.get(parent)!);
}

export function describePath(key: string, blob = ''): ViewFile {
  const display = shownPath(key);
  const segments = display.split('/');
  const name = segments.pop()!;
  return { path: key, display, blob, stemWords: segmentWords(fileStem(name)), dirWords: segments.reverse().map(segmentWords), legacy: false };
}
