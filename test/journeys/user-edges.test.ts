import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { CLI, git, runCli, runCommand, tempDir, twoLanguageRepo } from '../helpers.js';

const isRoot = process.getuid?.() === 0;

/** The CLI as a user who cannot read every file: root runs it as nobody (root reads everything), others as themselves. */
function runAsUser(args: string[], cwd: string) {
  if (!isRoot) return runCli(args, cwd);
  return runCommand('runuser', ['-u', 'nobody', '--', process.execPath, CLI, ...args], cwd, { HOME: cwd });
}

/** A repository the user of runAsUser owns, holding an edited and an untracked file that user cannot read. */
function repoWithUnreadableFiles(): string {
  const repo = twoLanguageRepo();
  fs.writeFileSync(path.join(repo, 'tools/backup.py'), 'def backup_database(path):\n    return path + ".edited"\n');
  fs.writeFileSync(path.join(repo, 'tools/notes.py'), 'def private_notes():\n    return "private"\n');
  for (const f of ['tools/backup.py', 'tools/notes.py']) fs.chmodSync(path.join(repo, f), 0o000);
  if (isRoot) {
    for (let dir = repo; dir !== path.dirname(dir) && dir.startsWith('/tmp/'); dir = path.dirname(dir)) fs.chmodSync(dir, 0o755);
    git(repo, 'config', 'core.sharedRepository', 'world');
    execFileSync('chown', ['-R', 'nobody', repo]);
  }
  return repo;
}

describe('a user on the edges of a repository', () => {
  test('a config.json saved with a byte order mark (Notepad, PowerShell 5) is read as the JSON it holds (was: exit 2, "Unexpected token")', async () => {
    const repo = twoLanguageRepo();
    fs.mkdirSync(path.join(repo, '.ocrag'));
    fs.writeFileSync(path.join(repo, '.ocrag', 'config.json'), '\uFEFF{ "exclude": ["tools/**"] }\n');
    const r = await runCli(['search', 'backup the database file', '-k', '5', '--json', '--min-match', '0'], repo);
    assert.equal(r.code, 0, r.stderr);
    const paths = (JSON.parse(r.stdout) as { path: string }[]).map((x) => x.path);
    assert.ok(paths.length > 0 && paths.every((p) => p.startsWith('src/')), paths.join(', '));
  });

  test('a shell inside the .git folder is told where the work tree is, exit 3, and nothing is written (was: "bare repository")', async () => {
    const repo = twoLanguageRepo();
    const before = fs.readdirSync(path.join(repo, '.git')).sort();
    for (const cwd of [path.join(repo, '.git'), path.join(repo, '.git', 'objects')]) {
      for (const args of [['search', 'backup'], ['index']]) {
        const r = await runCli(args, cwd);
        assert.equal(r.code, 3, r.stderr);
        assert.deepEqual(r.stderr.trim().split('\n'), [`ocrag: ${cwd} is inside the git folder of ${repo}: run ocrag in its work tree (ocrag -C '${repo}' …)`]);
      }
    }
    assert.deepEqual(fs.readdirSync(path.join(repo, '.git')).sort(), before);
    assert.equal(fs.existsSync(path.join(repo, '.ocrag')), false);
  });

  test('an edited or untracked file the user cannot read is left out; every other file is searched (was: every search exit 7, "cannot write")', async () => {
    const repo = repoWithUnreadableFiles();
    const r = await runAsUser(['search', 'route the path', '-k', '10', '--json', '--min-match', '0'], repo);
    assert.equal(r.code, 0, r.stderr);
    const paths = (JSON.parse(r.stdout) as { path: string }[]).map((x) => x.path).sort();
    assert.deepEqual(paths, ['src/cache.ts', 'src/router.ts', 'tools/report.py']);
  });

  test('an untracked node_modules no .gitignore names is no change of the user\'s: not embedded, not listed; an edit to a committed one is', async () => {
    const repo = twoLanguageRepo();
    fs.mkdirSync(path.join(repo, 'vendor/node_modules/kept'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'vendor/node_modules/kept/index.js'), 'export function keptDependency() { return 1; }\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'a vendored dependency');
    for (let p = 0; p < 20; p++) {
      fs.mkdirSync(path.join(repo, `node_modules/pkg${p}`), { recursive: true });
      fs.writeFileSync(path.join(repo, `node_modules/pkg${p}/index.js`), `export function route${p}(path) { return path.split("/"); }\n`);
    }
    fs.writeFileSync(path.join(repo, 'src/untracked.ts'), 'export function routeHelper(path: string) { return path; }\n');
    fs.writeFileSync(path.join(repo, 'vendor/node_modules/kept/index.js'), 'export function keptDependencyEdited() { return 2; }\n');
    const r = await runCli(['search', 'route the path', '-k', '20', '--json', '--min-match', '0'], repo);
    assert.equal(r.code, 0, r.stderr);
    const paths = (JSON.parse(r.stdout) as { path: string }[]).map((x) => x.path);
    assert.ok(paths.includes('src/untracked.ts'), paths.join(', '));
    assert.ok(!paths.some((p) => p.startsWith('node_modules/')), paths.join(', '));
    const list = await runCli(['list'], repo);
    assert.doesNotMatch(list.stdout, /^\s*\d+\s+node_modules\//m);
    assert.match(list.stdout, /vendor\/node_modules\/kept\/index\.js\s+\(modified\)/);
  });

  test('a branch named by 12 folders or 30 Chinese characters, and a source named by 40: indexed and searched (was: ENAMETOOLONG, exit 1)', async () => {
    const repo = twoLanguageRepo();
    const docs = tempDir('long-name-docs');
    fs.writeFileSync(path.join(docs, 'notes.md'), 'The gazpacho protocol is written down here.\n');
    const source = '设计文档'.repeat(10);
    assert.equal((await runCli(['add', docs, '--name', source], repo)).code, 0);
    for (const branch of [Array(12).fill('feature-branch-part').join('/'), '修复用户登录时密码校验失败并且会话过期后无法重新连接的问题以及日志']) {
      git(repo, 'checkout', '-q', '-b', branch);
      const index = await runCli(['index'], repo);
      assert.equal(index.code, 0, index.stderr);
      const r = await runCli(['search', 'gazpacho protocol', '-k', '1', '--json'], repo);
      assert.equal(r.code, 0, r.stderr);
      assert.equal((JSON.parse(r.stdout) as { path: string }[])[0]?.path, `${source}:notes.md`);
    }
    assert.equal((await runCli(['gc'], repo)).code, 0);
    const status = await runCli(['status'], repo);
    assert.equal(status.code, 0, status.stderr);
  });
});
