import { gitBuffer } from './run.js';

export type EntryKind = 'file' | 'executable' | 'symlink' | 'submodule' | 'other';

/** One file of a git tree: where it is and which blob it holds. */
export interface TreeEntry {
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

/** Lists every file of a tree recursively, in git's path order, in one git process. */
export async function listTree(root: string, treeish: string): Promise<TreeEntry[]> {
  const { stdout } = await gitBuffer(['ls-tree', '-r', '-l', '-z', '--full-tree', treeish], { cwd: root });
  return parseLsTree(stdout.toString('utf8'));
}

/** Parses `git ls-tree -r -l -z` output: "<mode> <type> <sha> <size>\t<path>\0". */
export function parseLsTree(out: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of out.split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [mode, , sha, size] = record.slice(0, tab).split(/ +/);
    entries.push({ path: record.slice(tab + 1), blob: sha, kind: KIND_BY_MODE[mode] ?? 'other', size: size === '-' ? 0 : Number(size) });
  }
  return entries;
}
