import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { OcragError } from '../util/errors.js';
import { resolveInside } from '../util/linked-path.js';
import type { AgentTarget } from './agents.js';
import type { FileEdit } from './file-edit.js';
import type { Launcher } from './launcher.js';

export interface PlannedFile {
  /** The agents the file is for (AGENTS.md serves several). */
  agent: string;
  /** From the project root. */
  path: string;
  before: string | null;
  /** Null: the file is deleted. */
  after: string | null;
  change: 'create' | 'update' | 'unchanged' | 'delete';
}

/** What setup would write for these agents, reading the current files; writes nothing. */
export function planSetup(root: string, targets: AgentTarget[], launcher: Launcher): PlannedFile[] {
  // A file setup only takes its entry out of (OpenCode's opencode.json) is not mentioned when there is none.
  return plan(root, targets, launcher, (edit, text) => edit.render(text)).filter((file) => file.before !== null || file.after !== null);
}

/** What `setup --remove` would change: ocrag's entries taken out, the files only ocrag wrote deleted. */
export function planRemoval(root: string, targets: AgentTarget[], launcher: Launcher): PlannedFile[] {
  return plan(root, targets, launcher, (edit, text) => (text === null ? null : edit.remove(text)));
}

function plan(root: string, targets: AgentTarget[], launcher: Launcher, apply: (edit: FileEdit, text: string | null) => string | null): PlannedFile[] {
  // A file several agents share (AGENTS.md) is planned once: each edit sees what the previous one made of it.
  const byPath = new Map<string, PlannedFile>();
  for (const target of targets) {
    for (const edit of target.edits(launcher)) {
      const known = byPath.get(edit.path);
      const before = known ? known.before : readIfExists(fileInside(root, edit.path));
      const after = apply(edit, known ? known.after : before);
      const change = after === null ? (before === null ? 'unchanged' : 'delete') : before === null ? 'create' : before === after ? 'unchanged' : 'update';
      const agent = known && !known.agent.split(', ').includes(target.name) ? `${known.agent}, ${target.name}` : target.name;
      byPath.set(edit.path, { agent, path: edit.path, before, after, change });
    }
  }
  return [...byPath.values()];
}

/** Writes the changed files; each is replaced whole at once, so an agent never reads half a config. */
export function applyPlan(root: string, plan: PlannedFile[]): void {
  for (const file of plan) {
    const full = fileInside(root, file.path);
    if (file.change === 'delete') removeFileAndEmptyFolders(fs.realpathSync(root), full);
    else if (file.change !== 'unchanged') writeFileAtomic(full, file.after!);
  }
}

/** Deletes the file, then the folders setup made for it (.opencode/plugin/, .claude/skills/ocrag/) once empty. */
function removeFileAndEmptyFolders(root: string, file: string): void {
  fs.rmSync(file, { force: true });
  for (let dir = path.dirname(file); dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
    try {
      fs.rmdirSync(dir);
    } catch {
      return;
    }
  }
}

/**
 * The file setup reads and writes for `rel`, inside the repository only: a committed link leading out on the way (a
 * folder `.claude` pointing into the home folder, an `AGENTS.md` pointing at a key) would have it write there, or
 * copy what the link names into the tree. Refused while planning, before anything is written.
 */
function fileInside(root: string, rel: string): string {
  const resolved = resolveInside(root, rel);
  if ('file' in resolved) return resolved.file;
  throw new OcragError(`refusing to set up ${rel}: ${resolved.link} is a symbolic link leading out of the repository (to ${resolved.target}), and ocrag writes agent files only inside it; remove the link, or add ocrag's entry by hand`);
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
