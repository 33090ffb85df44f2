import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { CLI, committedRepo, git, GIT_IDENTITY, PROJECT_ROOT, runCli, runJson, tempDir } from '../helpers.js';

/*
 * Attacks on the git hooks: a branch supplies programs in its work tree and hopes a hook runs them. Every hook
 * here is fired by real git (or run by sh exactly as git runs it, at the top of the work tree). A program the
 * branch supplies is a recorder that appends its name to `evil.log`; the ocrag the hooks are meant to start is a
 * recorder outside the tree writing `safe.log` (or, in the first test, the real CLI, whose background run logs).
 */

const NODE_DIR = path.dirname(process.execPath);
/** PATH without any ocrag on it, so each test says where ocrag is. */
const BASE_PATH = [NODE_DIR, ...(process.env.PATH ?? '').split(path.delimiter).filter((d) => d && !fs.existsSync(path.join(d, 'ocrag')))].join(path.delimiter);
const TREE_PROGRAMS = ['ocrag', 'node', 'nohup', 'cat', 'readlink', 'git'];

function recorder(file: string, log: string, name = path.basename(file)): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\necho "${name} $*" >> '${log}'\n`, { mode: 0o755 });
}

function read(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

async function waitFor(file: string, pattern: RegExp, ms = 30_000): Promise<string> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) if (pattern.test(read(file))) return read(file);
  throw new Error(`no ${pattern} in ${file}:\n${read(file)}`);
}

/** git itself, by its path: the PATHs below put the tree's `./git` first, for the hooks to ignore. */
const GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/** Runs git as the user would, with this PATH (and HOME, for the global config). */
function gitWith(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  return execFileSync(GIT, args, { cwd, env: { ...process.env, ...GIT_IDENTITY, ...env }, encoding: 'utf8', stdio: 'pipe' });
}

interface Lab {
  repo: string;
  evil: string;
  safeLog: string;
  safeBin: string;
}

/**
 * A repository whose branch `evil` commits recorders everywhere a hook might look: node_modules/.bin, bin/, the
 * top of the tree; `main` is clean. Hooks installed in .git/hooks from main.
 */
function makeLab(label: string): Lab {
  const dir = tempDir(label);
  const evil = path.join(dir, 'evil.log');
  const repo = committedRepo(path.join(dir, 'repo'), { 'src/auth.py': 'def check_password(given, stored):\n    """Compare a login attempt with the stored hash in constant time."""\n    return hmac.compare_digest(given, stored)\n', '.gitignore': 'node_modules/\n' }, 'clean');
  git(repo, 'checkout', '-q', '-b', 'evil');
  for (const name of TREE_PROGRAMS) {
    recorder(path.join(repo, 'node_modules', '.bin', name), evil, `node_modules/.bin/${name}`);
    recorder(path.join(repo, 'bin', name), evil, `bin/${name}`);
    recorder(path.join(repo, name), evil, `./${name}`);
  }
  git(repo, 'add', '-f', '-A');
  git(repo, 'commit', '-q', '-m', 'programs for the hooks to find');
  git(repo, 'checkout', '-q', 'main');
  const safeBin = path.join(dir, 'safe-bin');
  const safeLog = path.join(dir, 'safe.log');
  recorder(path.join(safeBin, 'ocrag'), safeLog);
  return { repo, evil, safeLog, safeBin };
}

/** Switches to `evil` and back with this PATH, and waits until the safe ocrag was started for both. */
async function checkoutTwice(lab: Lab, PATH: string): Promise<void> {
  fs.rmSync(lab.safeLog, { force: true });
  gitWith(lab.repo, { PATH }, 'checkout', '-q', 'evil');
  gitWith(lab.repo, { PATH }, 'checkout', '-q', 'main');
  await waitFor(lab.safeLog, /hook post-checkout [^]*hook post-checkout /);
}

describe('hooks run no program the work tree supplies', () => {
  let lab: Lab;
  before(async () => {
    lab = makeLab('hooks-tree');
    const r = await runCli(['hooks', 'install'], lab.repo, { PATH: BASE_PATH });
    assert.equal(r.code, 0, r.stderr);
  });

  test('a committed node_modules/.bin/ocrag: the checkout runs the ocrag on PATH, never the branch\'s', async () => {
    const realBin = path.join(path.dirname(lab.safeBin), 'real-bin');
    fs.mkdirSync(realBin, { recursive: true });
    fs.symlinkSync(CLI, path.join(realBin, 'ocrag'));
    const PATH = [realBin, BASE_PATH].join(path.delimiter);
    gitWith(lab.repo, { PATH }, 'checkout', '-q', 'evil');
    const log = await waitFor(path.join(lab.repo, '.ocrag', 'log'), /post-checkout: (indexed|up to date) evil@/, 120_000);
    assert.match(log, /post-checkout: (indexed|up to date) evil@/);
    assert.equal(read(lab.evil), '', 'nothing the branch committed ran');
    gitWith(lab.repo, { PATH }, 'checkout', '-q', 'main');
  });

  test('relative PATH entries (bin, node_modules/.bin, ., an empty entry) supply no ocrag, node, nohup, cat, readlink or git', async () => {
    await checkoutTwice(lab, ['bin', 'node_modules/.bin', '.', '', lab.safeBin, BASE_PATH].join(path.delimiter));
    assert.equal(read(lab.evil), '');
  });

  test('an absolute PATH entry inside the work tree, or a folder outside that links into it, supplies nothing', async () => {
    const link = path.join(path.dirname(lab.repo), 'linked-bin');
    fs.symlinkSync(path.join(lab.repo, 'bin'), link);
    try {
      await checkoutTwice(lab, [path.join(lab.repo, 'bin'), path.join(lab.repo, 'node_modules', '.bin'), link, lab.safeBin, BASE_PATH].join(path.delimiter));
      assert.equal(read(lab.evil), '');
    } finally {
      fs.rmSync(link);
    }
  });

  test('an ocrag on PATH that is a symlink into the work tree is not run', async () => {
    const outside = path.join(path.dirname(lab.repo), 'npm-linked');
    fs.mkdirSync(outside, { recursive: true });
    fs.symlinkSync(path.join(lab.repo, 'bin', 'ocrag'), path.join(outside, 'ocrag'));
    const PATH = [outside, BASE_PATH].join(path.delimiter);
    gitWith(lab.repo, { PATH }, 'checkout', '-q', 'evil');
    // What the hook found is what `hooks status` finds, by the same lines: this installation, not the link.
    const status = await runJson<{ program: string | null }>(['hooks', 'status'], lab.repo, { PATH });
    assert.equal(status.program, path.join(PROJECT_ROOT, 'dist', 'cli', 'main.js'));
    const log = path.join(lab.repo, '.ocrag', 'log');
    const offset = read(log).length;
    gitWith(lab.repo, { PATH }, 'checkout', '-q', 'main');
    for (const deadline = Date.now() + 60_000; !/post-checkout: .* main@/.test(read(log).slice(offset)) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    assert.match(read(log).slice(offset), /post-checkout: .* main@/, 'the installation ran instead');
    assert.equal(read(lab.evil), '');
  });

  test('a post-rewrite fed a thousand rewritten commits drains them with the shell, not a cat on PATH', async () => {
    fs.rmSync(lab.safeLog, { force: true });
    git(lab.repo, 'checkout', '-q', 'evil');
    const input = Array.from({ length: 1000 }, (_, i) => `${'a'.repeat(40)} ${String(i).padStart(40, '0')}\n`).join('');
    const PATH = ['.', 'bin', lab.safeBin, BASE_PATH].join(path.delimiter);
    execFileSync('sh', [path.join(lab.repo, '.git', 'hooks', 'post-rewrite'), 'rebase'], { cwd: lab.repo, input, env: { ...process.env, PATH, OCRAG_HOOKS_DISABLE: '' } });
    await waitFor(lab.safeLog, /ocrag hook post-rewrite rebase/);
    git(lab.repo, 'checkout', '-q', 'main');
    assert.equal(read(lab.evil), '');
  });

  test('an include of a tracked file cannot let the hooks run the tree\'s ocrag: only .git/config itself can', async () => {
    git(lab.repo, 'checkout', '-q', 'evil');
    fs.writeFileSync(path.join(lab.repo, 'team.gitconfig'), '[ocrag]\n\tprojectBin = true\n');
    git(lab.repo, 'config', '--local', 'include.path', '../team.gitconfig');
    try {
      assert.equal(git(lab.repo, 'config', '--get', 'ocrag.projectBin'), 'true', 'git itself sees the included setting');
      fs.rmSync(lab.safeLog, { force: true });
      gitWith(lab.repo, { PATH: [lab.safeBin, BASE_PATH].join(path.delimiter) }, 'commit', '-q', '--allow-empty', '-m', 'included opt-in');
      await waitFor(lab.safeLog, /hook post-commit/);
      assert.equal(read(lab.evil), '');
    } finally {
      git(lab.repo, 'config', '--local', '--unset', 'include.path');
      fs.rmSync(path.join(lab.repo, 'team.gitconfig'));
      git(lab.repo, 'checkout', '-q', 'main');
    }
  });

  test('an older block that runs ./node_modules/.bin/ocrag is called unsafe by hooks status and doctor, and install replaces it', async () => {
    const repo = makeLab('hooks-old').repo;
    // The block every version before this one wrote.
    const old = [
      '# >>> ocrag: keeps the code index current in the background (`ocrag hooks uninstall` removes this) >>>',
      'ocrag_bin=./node_modules/.bin/ocrag ocrag_node=; [ -x "$ocrag_bin" ] || ocrag_bin=$(command -v ocrag 2>/dev/null) || ocrag_bin=',
      '[ -z "$ocrag_bin" ] || [ -n "$OCRAG_HOOKS_DISABLE" ] || { ( unset GIT_DIR; nohup ${ocrag_node:+"$ocrag_node"} "$ocrag_bin" hook post-commit "$@" </dev/null >/dev/null 2>&1 & ) >/dev/null 2>&1; } || true',
      '# <<< ocrag <<<',
    ].join('\n');
    const hook = path.join(repo, '.git', 'hooks', 'post-commit');
    fs.writeFileSync(hook, `#!/bin/sh\necho mine\n${old}\n`, { mode: 0o755 });
    const status = await runCli(['hooks', 'status'], repo);
    assert.match(status.stdout, /^unsafe: post-commit hold an older block that runs \.\/node_modules\/\.bin\/ocrag from the work tree, which a branch can replace: run "ocrag hooks install"$/m);
    const doctor = await runCli(['doctor'], repo);
    assert.equal(doctor.code, 1);
    assert.match(doctor.stdout + doctor.stderr, /FAIL\s+hooks\s+post-commit hold an older ocrag block that runs \.\/node_modules\/\.bin\/ocrag/);
    assert.equal((await runCli(['hooks', 'install'], repo)).code, 0);
    const after = await runJson<{ blocks: { hook: string; kind: string }[] }>(['hooks', 'status'], repo);
    assert.deepEqual(after.blocks.map((b) => b.kind), ['current', 'current', 'current', 'current']);
    assert.match(fs.readFileSync(hook, 'utf8'), /^#!\/bin\/sh\necho mine\n# >>> ocrag/, 'the user\'s own lines stay');
    assert.ok(!fs.readFileSync(hook, 'utf8').includes('ocrag_bin=./node_modules'));
  });
});

describe('a hooks folder beyond the repository is not written silently', () => {
  test('core.hooksPath from the global config: install refuses with one line and exit 2, and writes nothing there', async () => {
    const home = tempDir('hooks-home');
    const globalHooks = path.join(home, 'githooks');
    fs.writeFileSync(path.join(home, '.gitconfig'), `[core]\n\thooksPath = ${globalHooks}\n`);
    const { repo } = makeLab('hooks-global');
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), PATH: BASE_PATH };
    const r = await runCli(['hooks', 'install'], repo, env);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `ocrag: core.hooksPath comes from your global git config (${globalHooks}): a block there runs in every repository on this machine, fresh clones included; to accept that, run "ocrag hooks install --global-hooks"; else go without hooks (every search brings the index up to date first)\n`);
    assert.ok(!fs.existsSync(globalHooks), 'nothing written');
    assert.ok(!fs.readdirSync(path.join(repo, '.git', 'hooks')).some((f) => HOOKS.includes(f)), 'nor in .git/hooks, which git would not run');
    // Said so: written, and then even a plain clone of a hostile repository runs only the ocrag outside it.
    const accepted = await runJson<{ place: { dir: string; shared: boolean } }>(['hooks', 'install', '--global-hooks'], repo, env);
    assert.deepEqual([accepted.place.dir, accepted.place.shared], [globalHooks, true]);
    const dir = path.dirname(repo);
    const safeLog = path.join(dir, 'safe.log');
    const clone = path.join(dir, 'fresh-clone');
    gitWith(dir, { ...env, PATH: [path.join(dir, 'safe-bin'), '.', 'bin', BASE_PATH].join(path.delimiter) }, 'clone', '-q', '-b', 'evil', repo, clone);
    await waitFor(safeLog, /hook post-checkout/);
    assert.equal(read(path.join(dir, 'evil.log')), '');
  });

  test('a repository\'s own core.hooksPath outside the repository is refused too; one inside its git folder is its own', async () => {
    const { repo } = makeLab('hooks-local-path');
    const shared = path.join(tempDir('hooks-shared'), 'team-hooks');
    git(repo, 'config', 'core.hooksPath', shared);
    const r = await runCli(['hooks', 'install'], repo);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^ocrag: this repository's core\.hooksPath is .*team-hooks, outside the repository: other repositories may run hooks from it too; to accept that, run "ocrag hooks install --global-hooks"/);
    assert.ok(!fs.existsSync(shared));
    git(repo, 'config', 'core.hooksPath', '.git/own-hooks');
    const own = await runJson<{ place: { kind: string; committable: boolean; shared: boolean } }>(['hooks', 'install'], repo);
    assert.deepEqual(own.place, { ...own.place, kind: 'hooksPath', committable: false, shared: false });
    assert.ok(fs.existsSync(path.join(repo, '.git', 'own-hooks', 'post-commit')));
  });

  test('a committed husky block is safe on a clone that did not opt in: the tree\'s ocrag never runs', async () => {
    const { repo, safeBin } = makeLab('hooks-husky');
    const husky = path.join(PROJECT_ROOT, 'node_modules', 'husky', 'bin.js');
    execFileSync(process.execPath, [husky], { cwd: repo });
    assert.equal((await runCli(['hooks', 'install'], repo)).code, 0);
    git(repo, 'add', '.husky');
    git(repo, 'commit', '-q', '-m', 'husky hooks with the ocrag block');
    git(repo, 'checkout', '-q', 'evil');
    git(repo, 'merge', '-q', '--no-edit', 'main');
    git(repo, 'checkout', '-q', 'main');
    // A teammate's clone: husky set up by `npm install` (its prepare script), the branch then checked out.
    const dir = path.dirname(repo);
    const clone = path.join(dir, 'teammate');
    git(dir, 'clone', '-q', repo, clone);
    execFileSync(process.execPath, [husky], { cwd: clone });
    const safeLog = path.join(dir, 'safe.log');
    gitWith(clone, { PATH: ['node_modules/.bin', '.', safeBin, BASE_PATH].join(path.delimiter) }, 'checkout', '-q', 'evil');
    await waitFor(safeLog, /hook post-checkout/);
    assert.equal(read(path.join(dir, 'evil.log')), '');
  });
});

const HOOKS = ['post-commit', 'post-checkout', 'post-merge', 'post-rewrite'];
