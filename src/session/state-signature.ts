import fs from 'node:fs';
import path from 'node:path';
import { headRef, readHeadFile } from '../git/head-file.js';
import type { IndexContext } from '../index/context.js';

/**
 * A fingerprint of everything besides the work tree that decides what a search answers for, read from a few
 * small files without running git, so it can be taken before every query. `source`: HEAD, the ref it points at
 * and the config; `index`: the manifests and the store identity, which index runs rewrite. Null when the refs
 * can't be read this way (reftable): then the caller must ask git every time.
 */
export interface StateSignature {
  source: string;
  index: string;
}

export function stateSignature(ctx: IndexContext): StateSignature | null {
  const head = ctx.plainFolder ? [] : headState(ctx.repo);
  if (head === null) return null;
  // `ocrag add` and `ocrag remove` change what a view holds; a plain folder's files are scanned by each view.
  const source = [...head, fileStamp(ctx.layout.config), fileStamp(ctx.layout.sources)].join('|');
  return { source, index: [ctx.layout.manifests, ctx.layout.meta].map(fileStamp).join('|') };
}

/** HEAD and the ref it points at, as files; null when refs are in a reftable. */
function headState({ gitDir, commonDir }: IndexContext['repo']): string[] | null {
  if (fs.existsSync(path.join(commonDir, 'reftable'))) return null;
  const head = readHeadFile(gitDir);
  if (head === null) return null;
  const parts = [head.trim()];
  const ref = headRef(head);
  if (ref) {
    // Loose refs win over packed ones; per-worktree refs live in the worktree's git dir.
    const loose = readText(path.join(commonDir, ref)) ?? readText(path.join(gitDir, ref));
    parts.push(loose !== null ? loose.trim() : `packed ${fileStamp(path.join(commonDir, 'packed-refs'))}`);
  }
  return parts;
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Changes whenever the file (or a folder's list of entries) is written, replaced or removed. */
function fileStamp(file: string): string {
  const stat = fs.statSync(file, { throwIfNoEntry: false, bigint: true });
  return stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}` : '-';
}
