import fs from 'node:fs';
import path from 'node:path';
import { shownInWorkTree } from '../git/folder-files.js';
import type { IndexContext } from '../index/index-context.js';
import { makeIndexFolder } from '../store/index-folder.js';
import { checkSourceName, readSources, removeSourceScan, writeSources, type SourceSpec } from '../store/sources.js';
import { OcragError } from '../util/errors.js';
import { realPathOr, resolveInside } from '../util/linked-path.js';

/**
 * Registers folders or files as sources (`ocrag add`). A source is named after its folder unless `--name` says
 * otherwise; its files are scanned and embedded by the next search or index run (or at once by the caller).
 */
export async function addSources(ctx: IndexContext, paths: string[], name?: string, maxBytes?: number): Promise<SourceSpec[]> {
  if (name !== undefined && paths.length !== 1) throw new OcragError('--name names one source: add one path with it');
  const sources = readSources(ctx.layout.sources);
  const added: SourceSpec[] = [];
  for (const given of paths) {
    const root = path.resolve(given);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(root);
    } catch {
      // Node reads arguments as UTF-8: a name that is not arrives with U+FFFD, naming nothing on disk.
      const bytes = given.includes('\uFFFD') ? ' (if its name is not valid UTF-8, it cannot be given on the command line: add the folder holding it)' : '';
      throw new OcragError(`cannot add "${given}": no such file or folder${bytes}`);
    }
    if (!stat.isDirectory() && !stat.isFile()) throw new OcragError(`cannot add "${given}": not a file or folder`);
    if (root === ctx.repo.root) throw new OcragError(`"${given}" is the ${ctx.kind.noun} itself: it is indexed already`);
    if (isGitOrIndexFolder(ctx, root)) throw new OcragError(`cannot add "${given}": git's folder and ocrag's hold no files of yours`);
    // A plain folder's own files are all indexed: a folder inside it would be indexed twice.
    if (ctx.kind.ownSources(ctx).some((own) => isInside(own.root, root))) throw new OcragError(`"${given}" is inside the folder ${ctx.repo.root}, whose files are all indexed already`);
    // A repository's own files (tracked, or untracked and not ignored) are indexed with its tree: twice as a source.
    if (await shownByTree(ctx, root, stat.isDirectory()))
      throw new OcragError(`"${given}" is inside the ${ctx.kind.noun} ${ctx.repo.root}, whose files are indexed already (a file or folder git ignores can be added)`);
    if (isInside(root, ctx.layout.dir)) throw new OcragError(`cannot add "${given}": it holds the index folder ${ctx.layout.dir}`);
    const same = sources.find((s) => s.root === root);
    if (same) throw new OcragError(`"${given}" is already the source "${same.name}"`);
    const sourceName = checkSourceName(name ?? defaultName(root));
    if (sources.some((s) => s.name === sourceName)) throw new OcragError(`a source named "${sourceName}" exists already: choose another with --name`);
    const spec: SourceSpec = { name: sourceName, root, addedAt: new Date().toISOString(), ...(maxBytes === undefined ? {} : { maxBytes }) };
    sources.push(spec);
    added.push(spec);
  }
  makeIndexFolder(ctx.layout);
  writeSources(ctx.layout.sources, sources);
  return added;
}

/** Removes a source by name or path; its chunks go with the next gc (another source may hold the same files). */
export function removeSource(ctx: IndexContext, nameOrPath: string): SourceSpec {
  const sources = readSources(ctx.layout.sources);
  const gone = sourceNamed(sources, nameOrPath);
  if (!gone) throw new OcragError(`no source "${nameOrPath}"${sources.length ? ` (sources: ${sources.map((s) => s.name).join(', ')})` : ': none was added'}`);
  writeSources(ctx.layout.sources, sources.filter((s) => s !== gone));
  removeSourceScan(ctx.layout.sourceScans, gone.name);
  return gone;
}

/** The source with this name, else the one added from this path. */
export function sourceNamed(sources: SourceSpec[], nameOrPath: string): SourceSpec | undefined {
  const root = path.resolve(nameOrPath);
  return sources.find((s) => s.name === nameOrPath) ?? sources.find((s) => s.root === root);
}

/**
 * What an agent asks to add, as paths to add: each named from the repository root (as the tools describe it) and
 * allowed by `sourceRoots`. The one rule for every agent surface (MCP, the editor plugins' host).
 */
export function agentSourcePaths(ctx: IndexContext, given: string[]): string[] {
  for (const p of given) checkAgentMayAdd(ctx, p);
  return given.map((p) => path.resolve(ctx.repo.root, p));
}

/** The source an agent names: by name, else by the path it was added with, from the repository root. */
export function removeAgentSource(ctx: IndexContext, nameOrPath: string): SourceSpec {
  const named = listSources(ctx).some((s) => s.name === nameOrPath);
  return removeSource(ctx, named ? nameOrPath : path.resolve(ctx.repo.root, nameOrPath));
}

/**
 * What an agent may add: only paths under a folder the user listed in `sourceRoots`, so a prompt cannot make the
 * index read the user's home or keys. Anything else is refused with the line that would allow it.
 */
function checkAgentMayAdd(ctx: IndexContext, given: string): void {
  const target = realPathOr(path.resolve(ctx.repo.root, given));
  const roots = ctx.config.sourceRoots.flatMap((r) => allowedRoot(ctx.repo.root, r));
  if (roots.some((root) => isInside(root, target))) return;
  const allow = JSON.stringify({ sourceRoots: [...ctx.config.sourceRoots, target] });
  throw new OcragError(`agents may add sources only under the folders the user allows, and "${given}" is outside them (${roots.length ? roots.join(', ') : 'none allowed'}): the user allows it with ${allow} in ${ctx.layout.config}`);
}

/**
 * A folder the user allows, as it really is. One named relative to the repository (`docs`) means a folder of the
 * repository: through a link the repository commits (`docs -> /`) it allows nothing.
 */
function allowedRoot(repoRoot: string, root: string): string[] {
  if (path.isAbsolute(root)) return [realPathOr(root)];
  const inside = resolveInside(repoRoot, root);
  return 'file' in inside ? [inside.file] : [];
}


export function listSources(ctx: IndexContext): SourceSpec[] {
  return readSources(ctx.layout.sources);
}

function defaultName(root: string): string {
  const base = path.basename(root).replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[._-]+/, '');
  return base || 'source';
}

/** Whether the workspace's tree shows this path already (a link from elsewhere to a folder of it too). */
async function shownByTree(ctx: IndexContext, target: string, isFolder: boolean): Promise<boolean> {
  const real = realPathOr(target);
  if (!isInside(realPathOr(ctx.repo.root), real)) return false;
  return ctx.kind.match({ git: () => shownInWorkTree(ctx.repo.root, real, isFolder), folder: async () => false });
}

/** A git folder (this repository's wherever it lives, or any `.git`), or an index folder, or a path inside one. */
function isGitOrIndexFolder(ctx: IndexContext, target: string): boolean {
  const real = realPathOr(target);
  if (real.split(path.sep).some((part) => part === '.git' || part === '.ocrag')) return true;
  return [ctx.repo.gitDir, ctx.repo.commonDir, ctx.layout.dir].some((dir) => dir !== '' && isInside(realPathOr(dir), real));
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!!rel && !rel.startsWith('..') && !path.isAbsolute(rel));
}
