// What the front door offers beyond one workspace's index: the model of this machine, the git hooks of a
// repository, the checks of `doctor`, an artifact checked without a workspace, where agents' files go, and the
// roots this machine indexed.
import path from 'node:path';
import type { Config } from '../config/config.js';
import { openContext } from '../index/context.js';
import { hookStatus, installHooks, uninstallHooks, type HookStatus, type InstallOptions } from '../git/hook-files.js';
import { NotInRepositoryError, openRepo } from '../git/repo.js';
import { runDoctor, type Check } from '../service/doctor.js';
import type { IndexVerification } from '../service/verify-index.js';
import { requireArtifactFile } from '../share/format.js';
import type { VerifiedArtifact } from '../share/verify.js';
import { indexedRoots as knownRoots, lastIndexRunAt, type KnownRoot } from '../store/known-roots.js';
import { findIndexedFolder } from '../store/layout.js';
import { ForeignIndexError } from '../util/errors.js';

export { buildDefaultModel, describeModel, pullModel } from '../embed/index.js';
export type { Check, HookStatus, IndexVerification, KnownRoot, VerifiedArtifact };

/** `ocrag doctor`'s checks of git, the model, the index, hooks and settings for the workspace at `cwd`. */
export function doctor(cwd: string, config: Partial<Config> = {}): Promise<Check[]> {
  return runDoctor(cwd, config);
}

/** Every chunk of HEAD's index held to git and embedded again (as long as an index run). */
export async function verifyIndex(cwd: string, config: Partial<Config> = {}): Promise<IndexVerification> {
  return (await import('../service/verify-index.js')).verifyIndex(cwd, config);
}

/** An artifact's checksums and header, without a workspace. */
export async function checkArtifact(file: string): Promise<VerifiedArtifact> {
  requireArtifactFile(file);
  return (await import('../share/verify.js')).verifyArtifact(file);
}

/** The model the workspace at `cwd` is configured with, or (outside one) the flag's, else the default. */
export async function configuredModel(cwd: string, config: Partial<Config> = {}): Promise<string> {
  try {
    return (await openContext(cwd, config)).config.model;
  } catch (e) {
    // A folder that is not ocrag's own names no model of the user's: said, never read.
    if (e instanceof ForeignIndexError) throw e;
    return config.model ?? 'default';
  }
}

/**
 * The repositories and folders this machine indexed that are still there to serve (a folder this user can read,
 * holding an index of this user's), the most recently indexed first. Index runs add to it; gone ones drop out.
 */
export function indexedRoots(): KnownRoot[] {
  return knownRoots();
}

/** When an index run last ended at `root` on this machine (ISO 8601): a plain folder's "last indexed", having no commit's. */
export function lastIndexRun(root: string): string | null {
  return lastIndexRunAt(root);
}

export async function installGitHooks(cwd: string, opts: InstallOptions = {}) {
  return installHooks(await openRepo(cwd), opts);
}

export async function uninstallGitHooks(cwd: string) {
  return uninstallHooks(await openRepo(cwd));
}

export async function gitHooks(cwd: string): Promise<HookStatus> {
  return hookStatus(await openRepo(cwd));
}

/**
 * Where an agent's files go: the top of the git work tree, else (outside git) the nearest folder indexed by ocrag,
 * else this folder, which `ocrag index` makes a knowledge base (the server an agent starts serves only one indexed).
 */
export async function agentRoot(cwd: string): Promise<{ root: string; unindexedFolder: boolean }> {
  try {
    return { root: (await openRepo(cwd)).root, unindexedFolder: false };
  } catch (e) {
    if (!(e instanceof NotInRepositoryError)) throw e;
    const indexed = findIndexedFolder(cwd);
    return { root: indexed ?? path.resolve(cwd), unindexedFolder: indexed === null };
  }
}
