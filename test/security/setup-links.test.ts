import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { git, runCli, tempDir } from '../helpers.js';

/** Every file under a folder with its bytes: what "nothing changed there" is checked against. */
function contentsOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile()) out[path.relative(dir, full)] = fs.readFileSync(full, 'latin1');
  }
  return out;
}

/** A repository committing links that lead out of it, at the places `ocrag setup` writes agent files. */
function hostileRepo(links: Record<string, string>): { repo: string; home: string } {
  const home = tempDir('setup-victim-home');
  fs.mkdirSync(path.join(home, '.config', 'opencode'), { recursive: true });
  fs.writeFileSync(path.join(home, 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n');
  const repo = tempDir('setup-links');
  git(repo, 'init', '-q');
  fs.writeFileSync(path.join(repo, 'app.py'), 'def main():\n    return 1\n');
  for (const [name, target] of Object.entries(links)) fs.symlinkSync(target.replace('$HOME', home), path.join(repo, name));
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'links');
  return { repo, home };
}

describe('ocrag setup never reads or writes through a link out of the repository', () => {
  test('a committed folder link (.claude, .opencode → the home folder): refused, nothing written anywhere', async () => {
    const { repo, home } = hostileRepo({ '.claude': '$HOME/.config', '.opencode': '$HOME/.config/opencode' });
    const before = contentsOf(home);
    const r = await runCli(['setup', 'all'], repo);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^ocrag: refusing to set up \.claude\/skills\/ocrag\/SKILL\.md: \.claude is a symbolic link leading out of the repository \(to .*\.config\)/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.deepEqual(contentsOf(home), before);
    assert.equal(git(repo, 'status', '--porcelain'), '', 'nothing written in the repository either');
    const removal = await runCli(['setup', 'opencode', '--remove'], repo);
    assert.equal(removal.code, 2, removal.stderr);
    assert.deepEqual(contentsOf(home), before);
  });

  test('a committed file link (AGENTS.md → a private key): its content is never copied into the tree', async () => {
    const { repo, home } = hostileRepo({ 'AGENTS.md': '$HOME/id_rsa' });
    const r = await runCli(['setup', 'codex'], repo);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /AGENTS\.md is a symbolic link leading out of the repository/);
    assert.ok(fs.lstatSync(path.join(repo, 'AGENTS.md')).isSymbolicLink(), 'the link is left as it was');
    assert.equal(fs.readFileSync(path.join(home, 'id_rsa'), 'utf8'), '-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n');
    const printed = await runCli(['setup', 'codex', '--print'], repo);
    assert.equal(printed.code, 2);
    assert.doesNotMatch(printed.stdout, /PRIVATE KEY/);
  });

  test('a link that stays inside the repository (CLAUDE.md-style) is followed: the file it names is edited, the link kept', async () => {
    const { repo } = hostileRepo({});
    fs.mkdirSync(path.join(repo, 'docs'));
    fs.writeFileSync(path.join(repo, 'docs', 'agents.md'), '# How we work\n');
    fs.symlinkSync('docs/agents.md', path.join(repo, 'AGENTS.md'));
    const r = await runCli(['setup', 'codex'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.lstatSync(path.join(repo, 'AGENTS.md')).isSymbolicLink(), 'still a link');
    const text = fs.readFileSync(path.join(repo, 'docs', 'agents.md'), 'utf8');
    assert.ok(text.startsWith('# How we work\n'), text);
    assert.match(text, /ocrag:begin/);
  });
});
