import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RepoInfo } from './repo.js';
import { git } from './run.js';

/** The git events after which the index may be behind HEAD. */
export const HOOK_NAMES = ['post-commit', 'post-checkout', 'post-merge', 'post-rewrite'] as const;

const BEGIN = '# >>> ocrag: keeps the code index current in the background (`ocrag hooks uninstall` removes this) >>>';
const END = '# <<< ocrag <<<';

/**
 * This installation's CLI, the fallback a hook in `.git/hooks/` (never committed) may record: the package's
 * dist/cli/main.js, found from the package root so that it is the same whether this module runs from dist/ or src/.
 */
export function installedCli(): { node: string; entry: string } {
  return { node: process.execPath, entry: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli', 'main.js') };
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

/** Git exports these to a hook; the background run finds the repository from its folder instead. */
const GIT_HOOK_ENV = 'GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_PREFIX GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES';

/**
 * The lines added to a hook. They find ocrag as the repository's own `node_modules/.bin/ocrag` (git runs hooks at
 * the top of the work tree), then `ocrag` on PATH, then, only when given (a `.git/hooks/` block, which is never
 * committed), this machine's installation; with none of them the block does nothing. Found, it starts
 * `ocrag hook <name>` detached with all output closed and returns at once: git never waits and never fails.
 */
export function hookBlock(name: string, fallback: { node: string; entry: string } | null): string {
  const lines = [BEGIN, 'ocrag_bin=./node_modules/.bin/ocrag ocrag_node=; [ -x "$ocrag_bin" ] || ocrag_bin=$(command -v ocrag 2>/dev/null) || ocrag_bin='];
  if (fallback) lines.push(`[ -n "$ocrag_bin" ] || [ ! -f ${shellQuote(fallback.entry)} ] || ocrag_bin=${shellQuote(fallback.entry)} ocrag_node=${shellQuote(fallback.node)}`);
  // A file checkout (post-checkout's third argument 0) switches no branch; post-rewrite's commits come on stdin.
  const gate = name === 'post-checkout' ? '[ "$3" != 1 ] || ' : '';
  const drain = name === 'post-rewrite' ? 'cat >/dev/null 2>&1; ' : '';
  lines.push(`${gate}[ -z "$ocrag_bin" ] || [ -n "$OCRAG_HOOKS_DISABLE" ] || { ${drain}( unset ${GIT_HOOK_ENV}; nohup \${ocrag_node:+"$ocrag_node"} "$ocrag_bin" hook ${name} "$@" </dev/null >/dev/null 2>&1 & ) >/dev/null 2>&1; } || true`);
  lines.push(END);
  return lines.join('\n');
}

/** A hook folder that may be committed (husky's, or a hooksPath inside the work tree) gets no path of this machine. */
function isShared(place: HookPlace, repo: RepoInfo): boolean {
  if (place.kind === 'husky') return true;
  if (place.kind === 'git') return false;
  const inside = path.relative(repo.root, place.dir);
  return inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside);
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
    const after = addBlock(before, hookBlock(name, isShared(place, repo) ? null : installedCli()));
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
