import fs from 'node:fs';
import path from 'node:path';
import { addExcludeGlob } from '../config/config.js';
import type { IndexContext } from '../index/index-context.js';
import { makeIndexFolder } from '../store/index-folder.js';
import type { SourceSpec } from '../store/sources.js';
import { OcragError } from '../util/errors.js';
import { listSources, removeSource, sourceNamed } from './sources.js';

export interface Excluded {
  /** The file or folder, relative to the repository or folder, `/`-separated. */
  path: string;
  /** The glob added to `exclude` (a folder's covers everything under it). */
  glob: string;
  /** The config file it went into. */
  config: string;
  /** False when the config excluded it already. */
  added: boolean;
}

/** Glob characters picomatch reads as patterns: escaped, a path names itself alone (`[draft] notes.md`). */
const GLOB_SPECIAL = /[*?[\]{}()!+@\\]/g;

/**
 * Leaves one file (or a folder) of the repository or plain folder out of the index and every search from now on:
 * its path goes into the index's `exclude` (`.ocrag/config.json`, the user's own settings), which the next view
 * applies. The path is the user's, relative to where they are; it must be inside the root and on disk.
 */
export function excludePath(ctx: IndexContext, given: string, cwd: string): Excluded {
  const key = treePathOf(ctx, given, cwd);
  if (key === null) throw new OcragError(`"${given}" is not a file or folder of ${ctx.repo.root}: only its own files can be excluded (sources are removed by name)`);
  return excludeKey(ctx, given, key);
}

/**
 * `ocrag remove`: the source with this name or path (its chunks go with the next gc), else the file or folder of the
 * tree it names, left out from now on (`excludePath`).
 */
export function removeFromIndex(ctx: IndexContext, given: string, cwd: string): { source: SourceSpec } | { excluded: Excluded } {
  const key = sourceNamed(listSources(ctx), given) ? null : treePathOf(ctx, given, cwd);
  return key === null ? { source: removeSource(ctx, given) } : { excluded: excludeKey(ctx, given, key) };
}

function excludeKey(ctx: IndexContext, given: string, key: string): Excluded {
  if (key === '.ocrag' || key.startsWith('.ocrag/')) throw new OcragError(`"${given}" is the index folder, which is never indexed`);
  const escaped = key.replace(GLOB_SPECIAL, '\\$&');
  const glob = fs.statSync(path.join(ctx.repo.root, key)).isDirectory() ? `${escaped}/**` : escaped;
  makeIndexFolder(ctx.layout);
  const added = addExcludeGlob(ctx.layout.config, glob);
  return { path: key, glob, config: ctx.layout.config, added };
}

/** The path relative to the root, `/`-separated, when it is on disk inside the root (not the root itself); else null. */
export function treePathOf(ctx: IndexContext, given: string, cwd: string): string | null {
  const absolute = throughLinks(path.resolve(cwd, given));
  const rel = path.relative(ctx.repo.root, absolute);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel) || !fs.lstatSync(absolute, { throwIfNoEntry: false })) return null;
  return rel.split(path.sep).join('/');
}

/** The path with its folder's links resolved (the root is the real one: a user may stand in a linked path). */
function throughLinks(p: string): string {
  try {
    return path.join(fs.realpathSync(path.dirname(p)), path.basename(p));
  } catch {
    return p;
  }
}
