import fs from 'node:fs';
import path from 'node:path';

/** The path with every link resolved, or as it is when it does not exist. */
export function realPathOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** Where a path inside a tree really leads: the file to use, or the link that leads out of the tree. */
export type Resolved = { file: string } | { link: string; target: string };

/**
 * Resolves `rel` below `root` through any symbolic links on the way. A repository may commit a link anywhere: one
 * that stays inside the tree (`CLAUDE.md -> AGENTS.md`) is followed, so the file it names is read and written and the
 * link stays a link; one that leads out (`.claude -> ~/.config`, `AGENTS.md -> ~/.ssh/id_rsa`) is returned as the
 * link, for the caller to refuse, so whoever reads or writes a file of its own in the tree never reaches outside it.
 * Parts that do not exist yet are taken as they are named: nothing below them can be a link.
 */
export function resolveInside(root: string, rel: string): Resolved {
  const realRoot = fs.realpathSync(root);
  const parts = rel.split(/[\\/]+/).filter(Boolean);
  let at = realRoot;
  for (let i = 0; i < parts.length; i++) {
    const next = path.join(at, parts[i]);
    const stat = fs.lstatSync(next, { throwIfNoEntry: false });
    if (!stat) return { file: path.join(next, ...parts.slice(i + 1)) };
    if (!stat.isSymbolicLink()) {
      at = next;
      continue;
    }
    let real: string | null;
    try {
      real = fs.realpathSync(next);
    } catch {
      real = null;
    }
    if (!real || !isWithin(realRoot, real)) return { link: path.join(...parts.slice(0, i + 1)), target: fs.readlinkSync(next) };
    at = real;
  }
  return { file: at };
}

function isWithin(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
