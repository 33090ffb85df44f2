import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv, homeVariable } from '../config/environment.js';
import { OcragError } from '../util/errors.js';
import { addBlock, BEGIN, blockKind, findProgramLines, HOOK_NAMES, hookBlock, PROJECT_BIN_KEY, removeBlock, type InstalledCli } from './hook-block.js';
import type { RepoInfo } from './repo.js';
import { git } from './run.js';

export { HOOK_NAMES } from './hook-block.js';

/**
 * This installation's CLI, the fallback a hook in a folder that is never committed may record: the package's
 * dist/cli/main.js, found from the package root so that it is the same whether this module runs from dist/ or src/.
 */
export function installedCli(): InstalledCli {
  return { node: process.execPath, entry: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli', 'main.js') };
}

export interface HookPlace {
  dir: string;
  /** "git" (.git/hooks), "hooksPath" (core.hooksPath) or "husky" (v9: user hooks in .husky/). */
  kind: 'git' | 'hooksPath' | 'husky';
  /** The git config that sets core.hooksPath (local, worktree, global, system, command), null for .git/hooks. */
  scope: string | null;
  /** Inside the work tree, so it may be committed: the block holds no path of this machine. */
  committable: boolean;
  /** Used beyond this repository: set by the global or system config, or a folder outside the repository. */
  shared: boolean;
}

const isInside = (dir: string, base: string): boolean => {
  const rel = path.relative(base, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** The path with its symlinks resolved as far as it exists (a hooks folder may not exist yet). */
function physical(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    const parent = path.dirname(p);
    return parent === p ? p : path.join(physical(parent), path.basename(p));
  }
}

/** Where this repository's hooks live: core.hooksPath, husky's folder, or the common git dir's hooks. */
export async function hookPlace(repo: RepoInfo): Promise<HookPlace> {
  const configured = await git(['config', '--show-scope', '--get', 'core.hooksPath'], { cwd: repo.root, okCodes: [1] });
  if (!configured) return { dir: path.join(repo.commonDir, 'hooks'), kind: 'git', scope: null, committable: false, shared: false };
  const tab = configured.indexOf('\t');
  const [scope, value] = [configured.slice(0, tab), configured.slice(tab + 1)];
  const dir = physical(path.resolve(repo.root, value.replace(/^~(?=\/)/, homeVariable() ?? '~')));
  const ofRepository = scope === 'local' || scope === 'worktree';
  const inGitDir = isInside(dir, physical(repo.commonDir)) || isInside(dir, physical(repo.gitDir));
  const inTree = !inGitDir && isInside(dir, physical(repo.root));
  const shared = !ofRepository || (!inGitDir && !inTree);
  // husky v9 points hooksPath at .husky/_ (its generated wrappers), which run the user's .husky/<hook>.
  if (path.basename(dir) === '_' && path.basename(path.dirname(dir)) === '.husky') return { dir: path.dirname(dir), kind: 'husky', scope, committable: inTree, shared };
  return { dir, kind: 'hooksPath', scope, committable: inTree, shared };
}

/** A hooks folder beyond this repository is written only when the user says so: one line saying what to do. */
function refuseShared(place: HookPlace): never {
  const then = 'to accept that, run "ocrag hooks install --global-hooks"; else go without hooks (every search brings the index up to date first)';
  if (place.scope === 'local' || place.scope === 'worktree') {
    throw new OcragError(`this repository's core.hooksPath is ${place.dir}, outside the repository: other repositories may run hooks from it too; ${then}`);
  }
  const where = place.scope === 'command' ? 'GIT_CONFIG_* in the environment' : place.scope === 'global' ? 'your global git config' : `the ${place.scope} git config`;
  const reach = place.scope === 'command' ? 'every repository that setting reaches' : 'every repository on this machine';
  throw new OcragError(`core.hooksPath comes from ${where} (${place.dir}): a block there runs in ${reach}, fresh clones included; ${then}`);
}

/**
 * The fallback a block may record: none in a folder that may be committed, nor when this ocrag lives in the work
 * tree (a project's dependency: node_modules/ocrag, which a checkout may overwrite), by its path or its real one.
 */
function fallbackFor(place: HookPlace, repo: RepoInfo): InstalledCli | null {
  const cli = installedCli();
  const inTree = isInside(cli.entry, repo.root) || isInside(physical(cli.entry), physical(repo.root));
  return place.committable || inTree ? null : cli;
}

export interface HookChange {
  hook: string;
  file: string;
  action: 'created' | 'appended' | 'updated' | 'removed block' | 'deleted' | 'unchanged';
}

export interface InstallOptions {
  /** true: let the hooks run ./node_modules/.bin/ocrag in this clone; false: no more; undefined: as it was. */
  projectBin?: boolean;
  /** Write into a hooks folder used beyond this repository (a global core.hooksPath). */
  globalHooks?: boolean;
}

export async function installHooks(repo: RepoInfo, opts: InstallOptions = {}): Promise<{ place: HookPlace; changes: HookChange[]; projectBin: boolean; program: string | null }> {
  const place = await hookPlace(repo);
  if (place.shared && !opts.globalHooks) refuseShared(place);
  if (opts.projectBin !== undefined) await setProjectBin(repo, opts.projectBin);
  const fallback = fallbackFor(place, repo);
  fs.mkdirSync(place.dir, { recursive: true });
  const changes = HOOK_NAMES.map((name): HookChange => {
    const file = path.join(place.dir, name);
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    const after = addBlock(before, hookBlock(name, fallback));
    if (after !== before) fs.writeFileSync(file, after);
    fs.chmodSync(file, fs.statSync(file).mode | 0o755);
    const action = before === null || before.trim() === '' ? 'created' : after === before ? 'unchanged' : before.includes(BEGIN) ? 'updated' : 'appended';
    return { hook: name, file, action };
  });
  return { place, changes, projectBin: await projectBinAllowed(repo), program: await hookProgram(repo, fallback) };
}

export async function uninstallHooks(repo: RepoInfo): Promise<{ place: HookPlace; changes: HookChange[] }> {
  const place = await hookPlace(repo);
  await setProjectBin(repo, false);
  const changes = HOOK_NAMES.map((name): HookChange => {
    const file = path.join(place.dir, name);
    if (!fs.existsSync(file)) return { hook: name, file, action: 'unchanged' };
    const before = fs.readFileSync(file, 'utf8');
    if (!before.includes(BEGIN)) return { hook: name, file, action: 'unchanged' };
    const after = removeBlock(before);
    // A hook that install created holds nothing else: remove it, as it was before.
    if (after.replace(/^#!.*\n?/, '').trim() === '') {
      fs.rmSync(file);
      return { hook: name, file, action: 'deleted' };
    }
    fs.writeFileSync(file, after);
    return { hook: name, file, action: 'removed block' };
  });
  return { place, changes };
}

export interface HookStatus {
  place: HookPlace;
  /** Hooks holding ocrag's block. */
  installed: string[];
  /** Each installed block: the one install writes today, an older one, or an older one that runs the work tree's code. */
  blocks: { hook: string; kind: 'current' | 'outdated' | 'runs tree code' }[];
  /** Whether this clone lets its hooks run ./node_modules/.bin/ocrag (ocrag.projectBin in .git/config). */
  projectBin: boolean;
  /** The ocrag a hook fired now would start, or null: then the hooks do nothing. */
  program: string | null;
}

export async function hookStatus(repo: RepoInfo): Promise<HookStatus> {
  const place = await hookPlace(repo);
  const fallback = fallbackFor(place, repo);
  const blocks = HOOK_NAMES.flatMap((name) => {
    const file = path.join(place.dir, name);
    const kind = fs.existsSync(file) ? blockKind(fs.readFileSync(file, 'utf8'), name, fallback) : null;
    return kind ? [{ hook: name, kind }] : [];
  });
  return { place, installed: blocks.map((b) => b.hook), blocks, projectBin: await projectBinAllowed(repo), program: await hookProgram(repo, fallback) };
}

export async function hooksInstalled(repo: RepoInfo): Promise<string[]> {
  return (await hookStatus(repo)).installed;
}

/** Read as the block reads it: this clone's own .git/config, no include followed. */
async function projectBinAllowed(repo: RepoInfo): Promise<boolean> {
  return (await git(['config', '--local', '--bool', '--get', PROJECT_BIN_KEY], { cwd: repo.root, okCodes: [1] })) === 'true';
}

async function setProjectBin(repo: RepoInfo, allowed: boolean): Promise<void> {
  if (allowed) await git(['config', '--local', PROJECT_BIN_KEY, 'true'], { cwd: repo.root });
  else await git(['config', '--local', '--unset-all', PROJECT_BIN_KEY], { cwd: repo.root, okCodes: [5] });
}

/** Runs the block's own lines that find ocrag, where a hook runs (the top of the work tree), and says what they found. */
function hookProgram(repo: RepoInfo, fallback: InstalledCli | null): Promise<string | null> {
  const script = `${findProgramLines(fallback).join('\n')}\nprintf '%s' "$bin"`;
  return new Promise((resolve) => {
    execFile('sh', ['-c', script], { cwd: repo.root, timeout: 5000, env: childEnv() }, (error, stdout) => resolve(error || !stdout ? null : stdout));
  });
}
