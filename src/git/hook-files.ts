import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RepoInfo } from './repo.js';
import { git } from './run.js';

/** The git events after which the index may be behind HEAD. */
export const HOOK_NAMES = ['post-commit', 'post-checkout', 'post-merge', 'post-rewrite'] as const;

const BEGIN = '# >>> ocrag: keeps the code index current in the background (`ocrag hooks uninstall` removes this) >>>';
const END = '# <<< ocrag <<<';

/** The script every installed hook calls: `hooks/ocrag-hook.sh` of this installation. */
export function hookScript(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'hooks', 'ocrag-hook.sh');
}

export interface HookPlace {
  dir: string;
  /** "git" (.git/hooks), "hooksPath" (core.hooksPath) or "husky" (v9: user hooks in .husky/). */
  kind: 'git' | 'hooksPath' | 'husky';
}

/** Where this repository's hooks live: core.hooksPath, husky's folder, or the common git dir's hooks. */
export async function hookPlace(repo: RepoInfo): Promise<HookPlace> {
  const configured = await git(['config', '--get', 'core.hooksPath'], { cwd: repo.root, okCodes: [1] });
  if (!configured) return { dir: path.join(repo.commonDir, 'hooks'), kind: 'git' };
  const dir = path.resolve(repo.root, configured.replace(/^~(?=\/)/, process.env.HOME ?? '~'));
  // husky v9 points hooksPath at .husky/_ (its generated wrappers), which run the user's .husky/<hook>.
  if (path.basename(dir) === '_' && path.basename(path.dirname(dir)) === '.husky') return { dir: path.dirname(dir), kind: 'husky' };
  return { dir, kind: 'hooksPath' };
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The lines added to a hook: call the shipped script if it is still there, and never fail. */
export function hookBlock(name: string, script = hookScript(), node = process.execPath): string {
  return [BEGIN, `[ -f ${shellQuote(script)} ] && OCRAG_NODE=${shellQuote(node)} sh ${shellQuote(script)} ${name} "$@" || true`, END].join('\n');
}

/** Adds the block to a hook's text, or replaces an earlier one; other lines stay as they were. Pure. */
export function addBlock(text: string | null, block: string): string {
  if (text === null || text.trim() === '') return `#!/bin/sh\n${block}\n`;
  const kept = removeBlock(text);
  return `${kept}${kept.endsWith('\n') ? '' : '\n'}${block}\n`;
}

/** Removes exactly the block and its line end; the rest of the hook is left byte for byte. Pure. */
export function removeBlock(text: string): string {
  const start = text.indexOf(BEGIN);
  if (start < 0) return text;
  let end = text.indexOf(END, start);
  if (end < 0) return text;
  end += END.length;
  if (text[end] === '\n') end++;
  return text.slice(0, start) + text.slice(end);
}

export interface HookChange {
  hook: string;
  file: string;
  action: 'created' | 'appended' | 'updated' | 'removed block' | 'deleted' | 'unchanged';
}

export async function installHooks(repo: RepoInfo): Promise<{ place: HookPlace; changes: HookChange[] }> {
  const place = await hookPlace(repo);
  fs.mkdirSync(place.dir, { recursive: true });
  const changes = HOOK_NAMES.map((name): HookChange => {
    const file = path.join(place.dir, name);
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    const after = addBlock(before, hookBlock(name));
    if (after !== before) fs.writeFileSync(file, after);
    fs.chmodSync(file, fs.statSync(file).mode | 0o755);
    const action = before === null || before.trim() === '' ? 'created' : after === before ? 'unchanged' : before.includes(BEGIN) ? 'updated' : 'appended';
    return { hook: name, file, action };
  });
  return { place, changes };
}

export async function uninstallHooks(repo: RepoInfo): Promise<{ place: HookPlace; changes: HookChange[] }> {
  const place = await hookPlace(repo);
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

export async function hooksInstalled(repo: RepoInfo): Promise<string[]> {
  const place = await hookPlace(repo);
  return HOOK_NAMES.filter((name) => {
    const file = path.join(place.dir, name);
    return fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes(BEGIN);
  });
}
