import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { storeLocation } from '../src/store/layout.js';
import { openStore } from '../src/store/open-store.js';
import { listManifests, readManifest, type Manifest } from '../src/store/manifest.js';
import { CLI, git, GIT_IDENTITY, makeFixtureRepo, PROJECT_ROOT, runCli, runJson, storedChunks, tempDir, twoLanguageRepo } from './helpers.js';

interface Result {
  path: string;
  startLine: number;
  endLine: number;
  text: string;
}

const manifestsDir = (repo: string) => path.join(repo, '.ocrag', 'manifests');

/** The manifest of the repository's current branch (or detached HEAD). */
function headManifest(repo: string): Manifest | null {
  const head = git(repo, 'rev-parse', 'HEAD');
  for (const key of listManifests(manifestsDir(repo))) {
    const m = readManifest(manifestsDir(repo), key);
    if (m?.commit === head) return m;
  }
  return null;
}

/** Waits until the background hook run has indexed HEAD and let go of the lock. */
async function waitForHookRun(repo: string, timeoutMs = 60_000): Promise<Manifest> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = headManifest(repo);
    const busy = fs.existsSync(path.join(repo, '.ocrag', 'index.lock')) || fs.existsSync(path.join(repo, '.ocrag', 'index.pending'));
    if (m && !busy) return m;
    if (Date.now() > deadline) throw new Error(`hook run did not index ${git(repo, 'rev-parse', 'HEAD')}; log:\n${readLog(repo)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits for the background run to log a line for `hook` after `offset` (the log's length before the git command). */
async function waitForLog(repo: string, offset: number, hook: RegExp, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const fresh = readLog(repo).slice(offset);
    if (hook.test(fresh)) return fresh;
    if (Date.now() > deadline) throw new Error(`no ${hook} line in the log:\n${readLog(repo)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function readLog(repo: string): string {
  try {
    return fs.readFileSync(path.join(repo, '.ocrag', 'log'), 'utf8');
  } catch {
    return '';
  }
}

/** Chunk ids of every blob a manifest names: what a search on that commit can return. */
async function chunkIdsOf(repo: string, manifest: Manifest): Promise<string[]> {
  const store = await openStore(storeLocation(path.join(repo, '.ocrag')), 512);
  try {
    const blobs = new Set(Object.values(manifest.files));
    return (await storedChunks(store)).filter((c) => blobs.has(c.blob)).map((c) => c.id).sort();
  } finally {
    store.close();
  }
}

function write(repo: string, file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  fs.writeFileSync(path.join(repo, file), text);
}

/** A fresh full index of the same commit in a separate clone: the reference an incremental index must equal. */
async function freshIndexOf(repo: string): Promise<{ files: Record<string, string>; ids: string[] }> {
  const clone = path.join(tempDir('fresh'), 'clone');
  execFileSync('git', ['clone', '-q', repo, clone]);
  git(clone, 'checkout', '-q', '--detach', git(repo, 'rev-parse', 'HEAD'));
  await runJson(['index'], clone);
  const m = headManifest(clone)!;
  return { files: m.files, ids: await chunkIdsOf(clone, m) };
}

describe('hooks keep the index on the checked-out commit', () => {
  let repo: string;
  before(async () => {
    repo = makeFixtureRepo();
    const r = await runCli(['hooks', 'install'], repo);
    assert.equal(r.code, 0, r.stderr);
    await runJson(['index'], repo);
  });

  test('commit → hook → new content is searchable without a manual run', async () => {
    write(repo, 'src/util/temperature.ts', '/** Converts degrees Celsius to Fahrenheit. */\nexport function celsiusToFahrenheit(c: number): number {\n  return (c * 9) / 5 + 32;\n}\n');
    git(repo, 'add', '-A');
    const started = Date.now();
    git(repo, 'commit', '-q', '-m', 'temperature');
    assert.ok(Date.now() - started < 2000, 'the commit is not held up by indexing');
    await waitForHookRun(repo);
    const results = await runJson<Result[]>(['search', 'convert celsius to fahrenheit', '-k', '3', '--no-update', '--committed-only'], repo);
    assert.equal(results[0].path, 'src/util/temperature.ts');
  });

  test('branch switch back embeds 0 chunks and answers for main only', async () => {
    git(repo, 'checkout', '-q', '-b', 'feature');
    write(repo, 'src/util/color.ts', fs.readFileSync(path.join(repo, 'src/util/color.ts'), 'utf8') + '\n/** Darkens a colour by a factor for hover states. */\nexport function darken(hex: string, by: number): string {\n  return mix(hex, "#000000", by);\n}\n');
    write(repo, 'server/health.py', 'def health_check():\n    """Report that the service is alive for the load balancer probe."""\n    return {"status": "ok"}\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'feature work');
    await waitForHookRun(repo);
    const logBefore = readLog(repo).length;
    git(repo, 'checkout', '-q', 'main');
    const switchLog = await waitForLog(repo, logBefore, /post-checkout: (indexed|up to date)/);
    assert.match(switchLog, /post-checkout: (indexed|up to date) main@.* 0 chunks embedded/, switchLog);
    const results = await runJson<Result[]>(['search', 'load balancer health probe', '-k', '10', '--no-update'], repo);
    assert.ok(!results.some((r) => r.path === 'server/health.py'), 'feature-only file is not shown on main');
    const colors = await runJson<Result[]>(['search', 'darken a colour for hover', '-k', '10', '--no-update'], repo);
    assert.ok(!colors.some((r) => /darken/.test(r.text)), 'feature-only function is not shown on main');
    const lines = fs.readFileSync(path.join(repo, 'src/util/color.ts'), 'utf8').split('\n');
    for (const r of colors.filter((c) => c.path === 'src/util/color.ts')) assert.equal(lines.slice(r.startLine - 1, r.endLine).join('\n'), r.text);
  });

  test('a new branch on an indexed commit is filed from the manifests, embedding nothing', async () => {
    await waitForHookRun(repo);
    const logBefore = readLog(repo).length;
    git(repo, 'checkout', '-q', '-b', 'twin');
    const switchLog = await waitForLog(repo, logBefore, /post-checkout: /);
    assert.match(switchLog, /post-checkout: up to date twin@.* 0 new blobs, 0 chunks embedded/, switchLog);
    assert.deepEqual(readManifest(manifestsDir(repo), 'branch-twin')?.files, readManifest(manifestsDir(repo), 'branch-main')?.files);
    git(repo, 'checkout', '-q', 'main');
    await waitForHookRun(repo);
  });

  test('merge, amend and rebase --autosquash leave the index equal to a fresh full index', async () => {
    git(repo, 'merge', '-q', '--no-edit', 'feature');
    await waitForHookRun(repo);
    git(repo, 'checkout', '-q', '-b', 'topic');
    write(repo, 'pkg/cache/stats.go', 'package cache\n\n// HitRate reports the share of lookups served from the cache.\nfunc HitRate(hits, misses int) float64 {\n\treturn float64(hits) / float64(hits+misses)\n}\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'hit rate');
    write(repo, 'pkg/cache/stats.go', fs.readFileSync(path.join(repo, 'pkg/cache/stats.go'), 'utf8') + '\n// MissRate is 1 - HitRate.\nfunc MissRate(hits, misses int) float64 {\n\treturn 1 - HitRate(hits, misses)\n}\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '--fixup', 'HEAD');
    git(repo, 'commit', '-q', '--amend', '--no-edit');
    execFileSync('git', ['rebase', '-q', '-i', '--autosquash', 'main'], { cwd: repo, env: { ...process.env, GIT_SEQUENCE_EDITOR: 'true', GIT_EDITOR: 'true' } });
    const manifest = await waitForHookRun(repo);
    const fresh = await freshIndexOf(repo);
    assert.deepEqual(manifest.files, fresh.files);
    assert.deepEqual(await chunkIdsOf(repo, manifest), fresh.ids);
  });

  test('two hook runs fired together produce one consistent index', async () => {
    git(repo, 'checkout', '-q', 'main');
    await waitForHookRun(repo);
    write(repo, 'src/util/clamp.ts', '/** Keeps a number within bounds. */\nexport function clamp(x: number, lo: number, hi: number): number {\n  return Math.min(hi, Math.max(lo, x));\n}\n');
    git(repo, 'add', '-A');
    execFileSync('git', ['commit', '-q', '-m', 'clamp'], { cwd: repo, env: { ...process.env, OCRAG_HOOKS_DISABLE: '1' } });
    const cli = path.join(PROJECT_ROOT, 'dist', 'cli', 'main.js');
    await Promise.all([0, 1, 2].map(() => runCli(['hook', 'post-commit'], repo)));
    void cli;
    const manifest = await waitForHookRun(repo);
    const fresh = await freshIndexOf(repo);
    assert.deepEqual(manifest.files, fresh.files);
    const ids = await chunkIdsOf(repo, manifest);
    assert.deepEqual(ids, fresh.ids);
    assert.equal(new Set(ids).size, ids.length, 'no duplicate chunks');
  });

  test('uncommitted edits are searched at the right lines, and vanish when reverted', async () => {
    const file = path.join(repo, 'server/auth.py');
    const original = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, original + '\n\ndef rotate_api_token(user):\n    """Issue a fresh API token and revoke the previous one."""\n    return secrets.token_hex(32)\n');
    const results = await runJson<Result[]>(['search', 'issue a fresh api token and revoke the old one', '-k', '3'], repo);
    const hit = results.find((r) => /rotate_api_token/.test(r.text));
    assert.ok(hit, JSON.stringify(results.map((r) => r.path)));
    assert.equal(fs.readFileSync(file, 'utf8').split('\n').slice(hit.startLine - 1, hit.endLine).join('\n'), hit.text);
    const committedOnly = await runJson<Result[]>(['search', 'issue a fresh api token and revoke the old one', '-k', '3', '--committed-only'], repo);
    assert.ok(!committedOnly.some((r) => /rotate_api_token/.test(r.text)));
    fs.writeFileSync(file, original);
    const after = await runJson<Result[]>(['search', 'issue a fresh api token and revoke the old one', '-k', '10'], repo);
    assert.ok(!after.some((r) => /rotate_api_token/.test(r.text)));
    fs.rmSync(path.join(repo, 'src/http/router.ts'));
    const deleted = await runJson<Result[]>(['search', 'dispatch a request to the matching route', '-k', '10'], repo);
    assert.ok(!deleted.some((r) => r.path === 'src/http/router.ts'), 'a deleted file disappears');
    git(repo, 'checkout', '--', 'src/http/router.ts');
  });

  test('a linked worktree shares the store and answers for its own branch', async () => {
    const wt = path.join(tempDir('wt'), 'feature-wt');
    git(repo, 'worktree', 'add', '-q', wt, 'feature');
    const results = await runJson<Result[]>(['search', 'load balancer health probe', '-k', '3'], wt);
    assert.equal(results[0].path, 'server/health.py');
    assert.ok(!fs.existsSync(path.join(wt, '.ocrag')), 'no second index in the worktree');
    const status = await runJson<{ branch: string; upToDate: boolean }>(['status'], wt);
    assert.equal(status.branch, 'feature');
    assert.equal(status.upToDate, true);
  });

  test('gc drops chunks of branches that are gone', async () => {
    git(repo, 'worktree', 'remove', '--force', git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).map((l) => l.slice(9))[1]);
    git(repo, 'branch', '-D', 'feature', 'topic');
    const r = await runJson<{ manifestsRemoved: string[]; chunksRemoved: number }>(['gc', '--keep', '1'], repo);
    assert.ok(r.manifestsRemoved.length >= 1);
    const status = await runJson<{ chunksReclaimable: number; upToDate: boolean }>(['status'], repo);
    assert.equal(status.chunksReclaimable, 0);
    const results = await runJson<Result[]>(['search', 'keeps a number within bounds', '-k', '1'], repo);
    assert.equal(results[0].path, 'src/util/clamp.ts');
  });
});

describe('hook installation respects what is there', () => {
  // Installation does not depend on what the repository holds: a four-file one keeps each hook's index run short.
  test('an existing post-commit hook keeps working, and uninstall restores it byte for byte', async () => {
    const repo = twoLanguageRepo();
    const hook = path.join(repo, '.git', 'hooks', 'post-commit');
    const original = '#!/bin/sh\necho "user hook ran" > "$(git rev-parse --show-toplevel)/.git/user-hook-ran"\n';
    fs.writeFileSync(hook, original, { mode: 0o755 });
    await runCli(['hooks', 'install'], repo);
    await runCli(['hooks', 'install'], repo);
    assert.equal(fs.readFileSync(hook, 'utf8').split('>>> ocrag').length, 2, 'installed once, idempotently');
    write(repo, 'a.txt', 'hello\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'a');
    assert.ok(fs.existsSync(path.join(repo, '.git', 'user-hook-ran')));
    await waitForHookRun(repo);
    await runCli(['hooks', 'uninstall'], repo);
    assert.equal(fs.readFileSync(hook, 'utf8'), original);
    assert.ok(!fs.existsSync(path.join(repo, '.git', 'hooks', 'post-merge')), 'hooks that install created are removed');
  });

  test('husky v9: the hook goes into .husky/ and husky keeps running it', async () => {
    const repo = twoLanguageRepo();
    execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'node_modules', 'husky', 'bin.js')], { cwd: repo });
    assert.equal(git(repo, 'config', 'core.hooksPath'), '.husky/_');
    fs.writeFileSync(path.join(repo, '.husky', 'post-commit'), 'echo husky-user-hook > .git/husky-ran\n');
    // A committed husky hook finds ocrag as the project's dependency, as on every teammate's machine.
    fs.mkdirSync(path.join(repo, 'node_modules', '.bin'), { recursive: true });
    fs.symlinkSync(CLI, path.join(repo, 'node_modules', '.bin', 'ocrag'));
    const r = await runJson<{ place: { kind: string; dir: string }; projectBin: boolean }>(['hooks', 'install', '--project-bin'], repo);
    assert.equal(r.place.kind, 'husky');
    assert.equal(r.projectBin, true, 'this clone allowed its own node_modules/.bin/ocrag');
    write(repo, 'b.txt', 'world\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'b');
    assert.ok(fs.existsSync(path.join(repo, '.git', 'husky-ran')));
    await waitForHookRun(repo);
    await runCli(['hooks', 'uninstall'], repo);
    assert.equal(fs.readFileSync(path.join(repo, '.husky', 'post-commit'), 'utf8'), 'echo husky-user-hook > .git/husky-ran\n');
  });

  test('a husky hook committed on one machine runs the ocrag of another once that clone allows it, and does nothing where there is none', async () => {
    const repo = twoLanguageRepo();
    execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'node_modules', 'husky', 'bin.js')], { cwd: repo });
    await runCli(['hooks', 'install'], repo);
    for (const name of ['post-commit', 'post-checkout', 'post-merge', 'post-rewrite']) {
      const hook = fs.readFileSync(path.join(repo, '.husky', name), 'utf8');
      assert.ok(!hook.includes(PROJECT_ROOT) && !hook.includes(process.execPath) && !hook.includes(repo), `${name} holds no path of this machine:\n${hook}`);
    }
    // Another machine: the repository elsewhere, ocrag nowhere on PATH, the project's own ocrag a shim that says it ran.
    const elsewhere = path.join(tempDir('teammate'), 'checkout');
    fs.cpSync(repo, elsewhere, { recursive: true, verbatimSymlinks: true });
    const bin = path.join(elsewhere, 'node_modules', '.bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, 'ocrag'), '#!/bin/sh\necho "$@" >> .git/shim-ran\n', { mode: 0o755 });
    const noOcrag = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => !fs.existsSync(path.join(dir, 'ocrag'))).join(path.delimiter);
    const env = { ...process.env, ...GIT_IDENTITY, PATH: noOcrag };
    const commit = (message: string) => execFileSync('git', ['commit', '-q', '--allow-empty', '-m', message], { cwd: elsewhere, env, encoding: 'utf8', stdio: 'pipe' });
    const ran = path.join(elsewhere, '.git', 'shim-ran');
    // The project's own ocrag is code a branch can replace: not run until this clone says so.
    commit('not allowed yet');
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!fs.existsSync(ran), 'the work tree\'s ocrag did not run without the clone\'s say');
    git(elsewhere, 'config', 'ocrag.projectBin', 'true');
    commit('on the teammate machine');
    // The shim's `>>` makes the file before echo fills it: wait for its whole line, not for the file.
    const line = () => (fs.existsSync(ran) ? fs.readFileSync(ran, 'utf8') : '');
    for (const deadline = Date.now() + 10_000; !line().endsWith('\n') && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    assert.equal(fs.readFileSync(ran, 'utf8'), 'hook post-commit\n');
    fs.rmSync(path.join(elsewhere, 'node_modules'), { recursive: true });
    const quiet = execFileSync('sh', ['-c', 'git commit -q --allow-empty -m "no ocrag at all" 2>&1; echo "exit $?"'], { cwd: elsewhere, env, encoding: 'utf8' });
    assert.equal(quiet, 'exit 0\n', 'git commit succeeds and prints nothing');
    assert.equal(git(elsewhere, 'log', '-1', '--format=%s'), 'no ocrag at all');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(fs.readFileSync(ran, 'utf8'), 'hook post-commit\n', 'nothing ran');
  });

  test('a hook in .git/hooks may fall back to this installation; one in a hooksPath inside the work tree may not', async () => {
    const repo = twoLanguageRepo();
    await runCli(['hooks', 'install'], repo);
    const hook = fs.readFileSync(path.join(repo, '.git', 'hooks', 'post-commit'), 'utf8');
    assert.ok(hook.includes(`'${CLI}'`), hook);
    const shared = twoLanguageRepo();
    git(shared, 'config', 'core.hooksPath', '.githooks');
    await runCli(['hooks', 'install'], shared);
    const committed = fs.readFileSync(path.join(shared, '.githooks', 'post-commit'), 'utf8');
    assert.ok(!committed.includes(CLI) && committed.includes('./node_modules/.bin/ocrag'), `a hooksPath inside the work tree may be committed:\n${committed}`);
  });

  test('with ocrag gone, git still succeeds', async () => {
    const repo = twoLanguageRepo();
    const hook = path.join(repo, '.git', 'hooks', 'post-commit');
    fs.writeFileSync(hook, '#!/bin/sh\n[ -f \'/nonexistent/ocrag-hook.sh\' ] && sh \'/nonexistent/ocrag-hook.sh\' post-commit "$@" || true\n', { mode: 0o755 });
    write(repo, 'c.txt', 'x\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'c');
    assert.match(git(repo, 'log', '-1', '--format=%s'), /^c$/);
  });
});
