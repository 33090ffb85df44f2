import fs from 'node:fs';
import path from 'node:path';
import { gitDiscoveryOverridden } from '../config/environment.js';
import { indexLayout } from './layout.js';

/**
 * The common case found without starting git (a process start was a fifth of a warm search): the nearest folder up
 * from `cwd` holding a `.git` folder of ours with a HEAD, on the same file system, is the work tree git would name.
 * Anything else (a worktree's or submodule's `.git` file, another owner, a mount crossed, GIT_DIR and the like):
 * null, and the caller asks git (the warm client: a root found wrongly could only miss, as a server answers only for
 * the root git gave it) or does without (a fresh clone's early index run, service/early-index.ts).
 */
export function plainCloneAbove(cwd: string): { root: string; indexDir: string } | null {
  if (gitDiscoveryOverridden() || typeof process.geteuid !== 'function') return null;
  const uid = process.geteuid();
  let dir: string;
  try {
    dir = fs.realpathSync(cwd);
  } catch {
    return null;
  }
  // The walk stays on the device it starts on (cwd's real path, so its lstat is its stat).
  let device: number | undefined;
  for (;;) {
    const here = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!here || here.dev !== (device ??= here.dev)) return null;
    const dotGit = fs.lstatSync(path.join(dir, '.git'), { throwIfNoEntry: false });
    if (dotGit) {
      const ours = dotGit.isDirectory() && dotGit.uid === uid && here.uid === uid && fs.lstatSync(path.join(dir, '.git', 'HEAD'), { throwIfNoEntry: false })?.isFile();
      return ours ? { root: dir, indexDir: indexLayout({ root: dir, commonDir: path.join(dir, '.git'), mainWorkTree: dir }).dir } : null;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
