import { DEFERRED_CA_CERTS } from '../util/deferred-ca.js';

/**
 * The lines ocrag adds to a git hook, as text: pure functions, no file is touched here (hook-files.ts writes them).
 *
 * A hook runs at every commit and checkout, in a work tree whose every file a branch may supply: a checkout writes
 * tracked files and overwrites ignored ones, `node_modules/` included. So the block runs no program from inside the
 * work tree, found by any road (`./node_modules/.bin/ocrag`, a relative PATH entry such as `node_modules/.bin` or
 * `.`, an absolute entry or a symlink into the tree, `#!/usr/bin/env node` finding a `node` there), unless the user
 * allowed the project's own `node_modules/.bin/ocrag` for this clone (`git config ocrag.projectBin true` in
 * `.git/config`, written by `ocrag hooks install --project-bin`): a clone never carries `.git/config`, so a
 * committed husky hook stays safe on every machine.
 */

/** The git events after which the index may be behind HEAD. */
export const HOOK_NAMES = ['post-commit', 'post-checkout', 'post-merge', 'post-rewrite'] as const;

export const BEGIN = '# >>> ocrag: keeps the code index current in the background (`ocrag hooks uninstall` removes this) >>>';
const END = '# <<< ocrag <<<';

/** The per-clone opt-in (read with `git config --local`: never from a file the repository carries, nor an include). */
export const PROJECT_BIN_KEY = 'ocrag.projectBin';
const PROJECT_BIN = './node_modules/.bin/ocrag';

/** This installation's CLI, which a hook in a folder that is never committed may fall back to. */
export interface InstalledCli {
  node: string;
  entry: string;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Git exports these to a hook; the background run finds the repository from its folder instead. */
const GIT_HOOK_ENV = 'GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_PREFIX GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES';

/**
 * Shell lines that leave in `$bin` (and `$node`, for the fallback) the ocrag to start, or exit the subshell they run
 * in when there is none allowed. Git runs hooks at the top of the work tree (`$top`, symlinks resolved). PATH keeps
 * only absolute entries whose real folder (`cd -P`: no process started) is outside it, and stays so for everything
 * started after (git, readlink, the `node` of `#!/usr/bin/env node`). A program found there that is a symlink (an
 * npm global install is one), and the fallback, whose folders were never resolved, are resolved (`readlink -f`;
 * where there is none, the path as it is) and refused when they land in the tree. Each process a hook starts costs
 * ~1 ms, more on a loaded machine: only those pay one.
 */
export function findProgramLines(fallback: InstalledCli | null): string[] {
  const lines = [
    'cd -P . && top=$PWD safe= bin= node=; IFS=:; set -f; for d in $PATH; do case $d in /*) cd -P "$d" 2>/dev/null || continue; case "$PWD/" in "$top"/*) ;; *) safe=$safe${safe:+:}$PWD;; esac;; esac; done; cd "$top"; unset IFS; set +f; PATH=$safe; export PATH',
    'outside() { case "$1/" in "$top"/*) return 1;; esac; [ -L "$1" ] || [ -n "$2" ] || return 0; r=$(readlink -f "$1" 2>/dev/null) || return 0; case "$r/" in "$top"/*) return 1;; esac; }',
    `[ ! -x ${PROJECT_BIN} ] || [ "$(git config --local --bool --get ${PROJECT_BIN_KEY} 2>/dev/null)" != true ] || bin=${PROJECT_BIN}`,
    '[ -n "$bin" ] || { bin=$(command -v ocrag 2>/dev/null) && outside "$bin"; } || bin=',
  ];
  if (fallback) {
    const entry = shellQuote(fallback.entry);
    lines.push(`[ -n "$bin" ] || [ ! -f ${entry} ] || ! outside ${entry} resolve || { bin=${entry} node=${shellQuote(fallback.node)}; }`);
    // The fallback starts node itself, past the installed command's sh launcher: so it defers the certificates as
    // that launcher does (scripts/launcher-head.sh), or every hook run pays Node's parse of them (40 ms here).
    lines.push(`[ -z "$node" ] || if [ -n "\${NODE_EXTRA_CA_CERTS-}" ]; then ${DEFERRED_CA_CERTS}=$NODE_EXTRA_CA_CERTS; export ${DEFERRED_CA_CERTS}; unset NODE_EXTRA_CA_CERTS; else unset ${DEFERRED_CA_CERTS}; fi`);
  }
  lines.push('[ -n "$bin" ] || exit 0');
  return lines;
}

/**
 * The block added to a hook: one subshell (nothing leaks into the rest of the hook: variables, PATH, `set -f`),
 * all output closed, `|| true` (a husky hook runs under `sh -e`). It finds ocrag (findProgramLines) and starts
 * `ocrag hook <name>` detached (SIGHUP ignored, as nohup would, without running a nohup found on PATH) and returns
 * at once: git never waits and never fails.
 */
export function hookBlock(name: string, fallback: InstalledCli | null): string {
  const lines = [BEGIN, '('];
  lines.push('[ -z "$OCRAG_HOOKS_DISABLE" ] || exit 0');
  // A file checkout (post-checkout's third argument 0) switches no branch.
  if (name === 'post-checkout') lines.push('[ "$3" = 1 ] || exit 0');
  lines.push(...findProgramLines(fallback));
  // post-rewrite's commits come on stdin: read with the shell's own `read`, not a `cat` found on PATH.
  if (name === 'post-rewrite') lines.push('while read -r _; do :; done');
  lines.push(`unset ${GIT_HOOK_ENV}; trap '' HUP; \${node:+"$node"} "$bin" hook ${name} "$@" </dev/null >/dev/null 2>&1 &`);
  lines.push(') >/dev/null 2>&1 || true', END);
  return lines.join('\n');
}

/** Adds the block to a hook's text, or replaces an earlier one; other lines stay as they were. Pure. */
export function addBlock(text: string | null, block: string): string {
  if (text === null || text.trim() === '') return `#!/bin/sh\n${block}\n`;
  const kept = removeBlock(text);
  return `${kept}${kept.endsWith('\n') ? '' : '\n'}${block}\n`;
}

/** Removes exactly the block and its line end; the rest of the hook is left byte for byte. Pure. */
export function removeBlock(text: string): string {
  const found = blockIn(text);
  if (!found) return text;
  const end = text[found.end] === '\n' ? found.end + 1 : found.end;
  return text.slice(0, found.start) + text.slice(end);
}

/** Where ocrag's block sits in a hook's text, and its text; null when there is none. Pure. */
function blockIn(text: string): { start: number; end: number; block: string } | null {
  const start = text.indexOf(BEGIN);
  if (start < 0) return null;
  const end = text.indexOf(END, start);
  if (end < 0) return null;
  return { start, end: end + END.length, block: text.slice(start, end + END.length) };
}

/**
 * What an installed block is: the one install writes today (for either fallback), an older one, or an older one
 * that runs the work tree's `./node_modules/.bin/ocrag` (or an `ocrag`, `node` or `nohup` of a relative PATH
 * entry) without the clone's say: every block before this one did. Null when the hook holds no block. Pure.
 */
export function blockKind(text: string, name: string, fallback: InstalledCli | null): 'current' | 'outdated' | 'runs tree code' | null {
  const found = blockIn(text);
  if (!found) return null;
  if (found.block === hookBlock(name, fallback) || found.block === hookBlock(name, null)) return 'current';
  // Blocks of the first versions called hooks/ocrag-hook.sh by its absolute path; that script keeps PATH safe.
  if (/ocrag-hook\.sh/.test(found.block) && !found.block.includes(PROJECT_BIN)) return 'outdated';
  return found.block.includes('PATH=$safe') ? 'outdated' : 'runs tree code';
}
