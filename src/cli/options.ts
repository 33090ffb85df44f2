import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Config, PlainFolderUse } from '../workspace/types.js';
import type { OpenOptions, Workspace } from '../workspace/workspace.js';
import { OcragError } from '../util/errors.js';
import { notice } from './output.js';

export interface GlobalOptions {
  cwd?: string;
  model?: string;
  include?: string[];
  exclude?: string[];
  maxFileBytes?: number;
}

/** Config overrides given as global flags. */
export function configFlags(cmd: Command): Partial<Config> {
  return configOf(cmd.optsWithGlobals() as GlobalOptions);
}

export function configOf(o: GlobalOptions): Partial<Config> {
  return { model: o.model, include: o.include, exclude: o.exclude, maxFileBytes: o.maxFileBytes };
}

/** The folder a command runs in: `-C <dir>`, which must be a folder (else git's "spawn git ENOENT" would say it), or here. */
export function workDir(cmd: Command): string {
  return workDirOf((cmd.optsWithGlobals() as GlobalOptions).cwd);
}

/** workDir of a `-C` value (undefined: none given). */
export function workDirOf(dir: string | undefined): string {
  if (dir === undefined) return currentFolder();
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new OcragError(`-C ${dir}: no such folder`);
  }
  if (!stat.isDirectory()) throw new OcragError(`-C ${dir}: not a folder`);
  return path.resolve(dir);
}

/**
 * The folder ocrag was started in. Node gives it as a string, a byte that is not UTF-8 read as U+FFFD: a folder
 * named so (`caf\xe9/`, legal on Linux) comes back as a path that does not exist, which git, started there, took
 * for a missing git ("spawn git ENOENT"). Said as it is, with the way out.
 */
function currentFolder(): string {
  const cwd = process.cwd();
  if (!fs.existsSync(cwd) && fs.existsSync('.')) throw new OcragError(`the path of the current folder is not valid UTF-8 (${cwd}), and ocrag cannot start git in it: run ocrag from a folder above it, or with -C <repository root>`);
  return cwd;
}

/**
 * The workspace a command works on, reporting to stderr. `folder`: the command also works in a plain folder outside
 * any git repository (see PlainFolderUse); without it, such a folder is exit 3.
 */
export async function openIndex(cmd: Command, opts: Omit<OpenOptions, 'config' | 'folder'> = {}, folder?: PlainFolderUse): Promise<Workspace> {
  return openIndexIn(workDir(cmd), configFlags(cmd), opts, folder);
}

/** openIndex for a command line read without commander (the quick entry of a search, quick-search.ts). */
export async function openIndexIn(dir: string, config: Partial<Config>, opts: Omit<OpenOptions, 'config' | 'folder'> = {}, folder?: PlainFolderUse): Promise<Workspace> {
  const { Workspace } = await import('../workspace/workspace.js');
  return Workspace.open(dir, { ...opts, config, reporter: { notice, ...opts.reporter }, folder: folder ?? false });
}

export function splitList(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

/** Parser for flags that take a count; a bad value is a one-line usage error. */
export function positiveInt(flag: string, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < 1 || n > max) throw new OcragError(`${flag} must be a whole number from 1 to ${max}, got "${value}"`);
    return n;
  };
}
