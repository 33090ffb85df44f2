import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cacheRoot } from '../config/environment.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { realPathOr } from '../util/linked-path.js';
import { testSeams } from '../util/test-seams.js';

/**
 * The roots this machine indexed, each remembered by the index run that made or updated its index: the panel
 * offers them to switch between. One small file per root, so two runs in two repositories never race over a
 * shared list; an entry whose root or index is gone is dropped when the list is read.
 */
export interface KnownRoot {
  /** The work tree's top, or the plain folder. */
  root: string;
  kind: 'repository' | 'folder';
  /** The root's index folder (a work tree's `.ocrag/`, shared by its worktrees; a bare repository's `ocrag/`). */
  index: string;
  /** When an index run last ended there (ISO 8601). */
  indexedAt: string;
}

/** The meta file every index holds once its store was made (store/layout.ts): an index folder without it is none. */
const STORE_META = 'store.json';
const INDEX_FOLDER_NAMES = new Set(['.ocrag', 'ocrag']);

function rootsDir(): string {
  return testSeams().knownRootsDir ?? path.join(cacheRoot(), 'roots');
}

const entryFile = (root: string) => path.join(rootsDir(), `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.json`);

/** Remembers that an index run ended at `root`. Never fails the run: a cache folder it cannot write loses only the panel's list. */
export function rememberIndexedRoot(entry: Omit<KnownRoot, 'indexedAt'>): void {
  try {
    fs.mkdirSync(rootsDir(), { recursive: true, mode: 0o700 });
    // By its real path: the same root reached through a link is one entry, and the one a session serves.
    const known: KnownRoot = { root: realPathOr(entry.root), kind: entry.kind, index: realPathOr(entry.index), indexedAt: new Date().toISOString() };
    writeFileAtomic(entryFile(known.root), JSON.stringify(known), { durable: false });
  } catch {
    // The list is a convenience, rebuilt by the next run.
  }
}

/**
 * The roots remembered that are still servable: a folder this user can read, holding an index of this user's;
 * the most recently indexed first. An entry whose root or index no longer exists is forgotten. Nothing in an
 * entry is taken on trust: a path that is not absolute and normal, or an entry filed under another root's name,
 * is passed over.
 */
export function indexedRoots(): KnownRoot[] {
  let names: string[];
  try {
    names = fs.readdirSync(rootsDir()).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const roots: KnownRoot[] = [];
  for (const name of names) {
    const file = path.join(rootsDir(), name);
    const entry = parseEntry(file);
    if (!entry || entryFile(entry.root) !== file) continue;
    const state = servable(entry);
    if (state === 'gone') fs.rmSync(file, { force: true });
    else if (state === 'ok') roots.push(entry);
  }
  return roots.sort((a, b) => b.indexedAt.localeCompare(a.indexedAt) || a.root.localeCompare(b.root));
}

/** When an index run last ended at `root` on this machine, as recorded; null when none was. */
export function lastIndexRunAt(root: string): string | null {
  const file = entryFile(realPathOr(root));
  const entry = parseEntry(file);
  return entry && entryFile(entry.root) === file ? entry.indexedAt : null;
}

function parseEntry(file: string): KnownRoot | null {
  let value: Partial<Record<keyof KnownRoot, unknown>>;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  const { root, kind, index, indexedAt } = value ?? {};
  if (!isCleanAbsolute(root) || !isCleanAbsolute(index) || (kind !== 'repository' && kind !== 'folder')) return null;
  if (typeof indexedAt !== 'string' || Number.isNaN(Date.parse(indexedAt))) return null;
  // A folder's index is its own `.ocrag/`; a repository's sits in its main work tree or git dir.
  if (!INDEX_FOLDER_NAMES.has(path.basename(index)) || (kind === 'folder' && index !== path.join(root, '.ocrag'))) return null;
  return { root, kind, index, indexedAt };
}

const isCleanAbsolute = (p: unknown): p is string => typeof p === 'string' && p.length > 1 && !p.includes('\0') && path.isAbsolute(p) && path.normalize(p) === p && !p.endsWith(path.sep);

/** `ok`; `gone` when the root or its index folder no longer exists; `refused` when it is not for this user to serve now. */
function servable(entry: KnownRoot): 'ok' | 'gone' | 'refused' {
  try {
    if (!fs.statSync(entry.root).isDirectory()) return 'gone';
    fs.accessSync(entry.root, fs.constants.R_OK | fs.constants.X_OK);
    const uid = process.geteuid?.();
    if (uid !== undefined && fs.lstatSync(entry.index).uid !== uid) return 'refused';
  } catch (e) {
    return missing(e) ? 'gone' : 'refused';
  }
  try {
    // Without its store the folder is no index to serve now (cleared, or a rebuild between its moves): left, not forgotten.
    fs.accessSync(path.join(entry.index, STORE_META), fs.constants.R_OK);
    return 'ok';
  } catch {
    return 'refused';
  }
}

const missing = (e: unknown) => ['ENOENT', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '');
