import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { AgentTarget } from './agents.js';
import type { Launcher } from './launcher.js';

export interface PlannedFile {
  agent: string;
  /** From the project root. */
  path: string;
  before: string | null;
  after: string;
  change: 'create' | 'update' | 'unchanged';
}

/** What setup would write for these agents, reading the current files; writes nothing. */
export function planSetup(root: string, targets: AgentTarget[], launcher: Launcher): PlannedFile[] {
  const plan: PlannedFile[] = [];
  for (const target of targets) {
    for (const edit of target.edits(launcher)) {
      const before = readIfExists(path.join(root, edit.path));
      const after = edit.render(before);
      plan.push({ agent: target.name, path: edit.path, before, after, change: before === null ? 'create' : before === after ? 'unchanged' : 'update' });
    }
  }
  return plan;
}

/** Writes the changed files; each is replaced whole at once, so an agent never reads half a config. */
export function applyPlan(root: string, plan: PlannedFile[]): void {
  for (const file of plan) {
    if (file.change === 'unchanged') continue;
    const full = path.join(root, file.path);
    writeFileAtomic(full, file.after);
  }
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
