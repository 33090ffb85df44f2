import { latin1Key, nulRecords } from './path-key.js';
import { gitBuffer, GitError, NotFetchedError } from './run.js';

/** 'unfetched': a blob a partial clone has not downloaded (reading it would fetch it from the remote). */
export type EntryKind = 'file' | 'executable' | 'symlink' | 'submodule' | 'unfetched' | 'other';

/** One file of a git tree: where it is and which blob it holds. */
export interface TreeEntry {
  /** The file's name as a key (`path-key.ts`): byte-exact, quoted by git's rule when it is not plain UTF-8. */
  path: string;
  blob: string;
  kind: EntryKind;
  /** Blob size in bytes (0 for submodules). */
  size: number;
}

const KIND_BY_MODE: Record<string, EntryKind> = {
  '100644': 'file',
  '100755': 'executable',
  '120000': 'symlink',
  '160000': 'submodule',
};

/**
 * Lists every file of a tree recursively, in git's path order, in one git process. In a partial clone
 * (`--filter=blob:none`, the usual monorepo set-up with sparse checkout) blobs not downloaded yet are listed as
 * 'unfetched' and never touched: their sizes, let alone their content, would be fetched one by one.
 */
export async function listTree(root: string, treeish: string): Promise<TreeEntry[]> {
  if (!(await isPartialClone(root))) {
    const { stdout } = await gitBuffer(['ls-tree', '-r', '-l', '-z', '--full-tree', treeish], { cwd: root });
    return parseLsTree(stdout);
  }
  const [listed, objects] = await Promise.all([
    gitBuffer(['ls-tree', '-r', '-z', '--full-tree', treeish], { cwd: root }),
    // --missing=print names absent objects (prefixed "?") without fetching them.
    gitBuffer(['rev-list', '--objects', '--no-object-names', '--missing=print', treeish], { cwd: root }),
  ]).catch((e: unknown) => {
    // Either fails only on a tree the clone lacks (the blobs it lacks are listed, never read).
    throw e instanceof GitError ? new NotFetchedError() : e;
  });
  const missing = new Set(objects.stdout.toString('utf8').split('\n').filter((l) => l.startsWith('?')).map((l) => l.slice(1)));
  const entries = parseLsTree(listed.stdout);
  const present = entries.filter((e) => e.kind !== 'submodule' && !missing.has(e.blob)).map((e) => e.blob);
  const { stdout } = await gitBuffer(['cat-file', '--batch-check=%(objectname) %(objectsize)'], { cwd: root, input: present.join('\n') + '\n' });
  const sizes = new Map(stdout.toString('utf8').split('\n').map((l) => l.split(' ') as [string, string]));
  for (const e of entries) {
    if (missing.has(e.blob) && e.kind !== 'submodule') e.kind = 'unfetched';
    e.size = Number(sizes.get(e.blob) ?? 0);
  }
  return entries;
}

async function isPartialClone(root: string): Promise<boolean> {
  const { stdout } = await gitBuffer(['config', '--get-regexp', '^(remote\\..*\\.promisor|extensions\\.partialclone)$'], { cwd: root, okCodes: [1] });
  return stdout
    .toString('utf8')
    .split('\n')
    .some((line) => /^extensions\.partialclone \S/.test(line) || /^remote\..*\.promisor true$/.test(line));
}

/** Parses `git ls-tree -r -l -z` output: "<mode> <type> <sha> <size>\t<path>\0", the path as raw bytes. */
export function parseLsTree(out: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of nulRecords(out)) {
    const tab = record.indexOf('\t');
    const [mode, , sha, size] = record.slice(0, tab).split(/ +/);
    entries.push({ path: latin1Key(record.slice(tab + 1)), blob: sha, kind: KIND_BY_MODE[mode] ?? 'other', size: size === undefined || size === '-' ? 0 : Number(size) });
  }
  return entries;
}
