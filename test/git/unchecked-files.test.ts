// Files git status never compares (`--skip-worktree`, `--assume-unchanged`): their edits must reach the answer, as the
// agent opens the file and reads them. Real repositories, real git index files (versions 2, 3 and 4, a split index),
// and the built CLI answering from a real index.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { markedEntries, uncheckedEdits } from '../../src/git/unchecked-files.js';
import { committedRepo, git, runCli, runJson, tempDir } from '../helpers.js';

interface Result {
  path: string;
  text: string;
}

const SETTINGS = 'DATABASE_HOST = "localhost"\ndef connect_database():\n    return DATABASE_HOST\n';
const LOCAL = 'DATABASE_HOST = "prod.internal.example"\ndef connect_database():\n    return DATABASE_HOST\n';
const cold = { OCRAG_WARM: '0' };

/** git's own list of marked entries: `ls-files -v` prints `S` for skip-worktree and a lower-case tag for assume-unchanged. */
function gitMarked(repo: string): string[] {
  return git(repo, 'ls-files', '-v', '-z')
    .split('\0')
    .filter((line) => line.startsWith('S ') || /^[a-z] /.test(line))
    .map((line) => line.slice(2))
    .sort();
}

function markedIn(repo: string): string[] | null {
  const entries = markedEntries(fs.readFileSync(path.join(repo, '.git', 'index')));
  return entries && entries.map((e) => e.path).sort();
}

describe('the index file is read as git reads it', () => {
  const files: Record<string, string> = {};
  // Long shared prefixes (version 4 compresses them away), a long name (1,705 bytes) and a Chinese one.
  for (let i = 0; i < 40; i++) files[`src/module/deeply/nested/part_${i}.py`] = `x = ${i}\n`;
  files[`${'long_folder_name/'.repeat(100)}tail.py`] = 'tail = 1\n';
  files['文档/说明.md'] = '说明\n';
  const repo = committedRepo(path.join(tempDir('unchecked'), 'r'), files, 'first');
  git(repo, 'update-index', '--skip-worktree', 'src/module/deeply/nested/part_3.py', '文档/说明.md');
  git(repo, 'update-index', '--assume-unchanged', 'src/module/deeply/nested/part_17.py', `${'long_folder_name/'.repeat(100)}tail.py`);

  for (const version of ['3', '4', '2']) {
    it(`version ${version}: the same marked entries as git ls-files -v`, () => {
      if (version === '2') git(repo, 'update-index', '--no-skip-worktree', 'src/module/deeply/nested/part_3.py', '文档/说明.md');
      git(repo, 'update-index', '--index-version', version);
      assert.equal(fs.readFileSync(path.join(repo, '.git', 'index')).readUInt32BE(4), Number(version));
      assert.deepEqual(markedIn(repo), gitMarked(repo));
    });
  }

  it('a split index (entries in another file) is not followed: nothing added, status alone decides', () => {
    git(repo, 'update-index', '--split-index');
    assert.equal(markedIn(repo), null);
    git(repo, 'update-index', '--no-split-index');
  });

  it('nothing marked, or a file that is not an index: none', () => {
    const plain = committedRepo(path.join(tempDir('unchecked-plain'), 'r'), { 'a.py': 'a = 1\n' }, 'first');
    assert.equal(markedIn(plain), null);
    assert.equal(markedEntries(Buffer.from('not an index at all')), null);
    assert.equal(markedEntries(fs.readFileSync(path.join(plain, '.git', 'index')).subarray(0, 40)), null);
  });
});

/** A one-entry index file as git lays it out (version 2 or 3), the entry marked `--assume-unchanged`, its name `name`. */
function oneEntryIndex(version: number, name: string, flags = 0x8000): Buffer {
  const bytes = Buffer.from(name);
  const entry = Buffer.alloc((62 + bytes.length + 8) & ~7);
  entry.writeUInt32BE(1, 36);
  entry.writeUInt16BE(flags | Math.min(bytes.length, 0xfff), 60);
  bytes.copy(entry, 62);
  const header = Buffer.alloc(12);
  header.write('DIRC', 0, 'latin1');
  header.writeUInt32BE(version, 4);
  header.writeUInt32BE(1, 8);
  return Buffer.concat([header, entry, Buffer.alloc(20)]);
}

describe('a garbled or hostile index file', () => {
  it('a name git would never write (outside the work tree, inside .git) is not read: nothing added', () => {
    const repo = committedRepo(path.join(tempDir('unchecked-hostile'), 'r'), { 'a.py': 'a = 1\n' }, 'first');
    assert.equal(oneEntryIndex(2, 'a.py').length % 8, 0);
    assert.equal(markedEntries(oneEntryIndex(2, 'a.py'))?.[0]?.path, 'a.py', 'the crafted layout is one git reads');
    for (const name of ['../outside.py', '/etc/hostname', '.git/config', 'sub/.GIT/config', 'a//b.py', './a.py']) {
      assert.equal(markedEntries(oneEntryIndex(2, name)), null, name);
      fs.writeFileSync(path.join(repo, '.git', 'index'), oneEntryIndex(2, name));
      assert.deepEqual(uncheckedEdits(repo, path.join(repo, '.git')), [], name);
    }
  });

  it('cut short anywhere (an extended entry whose second flags word is missing included): none, never a throw', () => {
    const whole = oneEntryIndex(3, 'a.py', 0x8000 | 0x4000);
    for (let end = 0; end <= whole.length; end++) assert.doesNotThrow(() => markedEntries(whole.subarray(0, end)), `cut at ${end}`);
    assert.equal(markedEntries(whole.subarray(0, 12 + 62)), null);
  });
});

describe('a marked file edited in the work tree is answered as the file says', () => {
  let repo: string;

  before(async () => {
    repo = committedRepo(path.join(tempDir('unchecked-search'), 'r'), { 'settings.py': SETTINGS, 'app/main.py': 'from settings import connect_database\n', 'docs/guide.md': '# Guide\n' }, 'first');
    const indexed = await runCli(['index'], repo);
    assert.equal(indexed.code, 0, indexed.stderr);
  });

  it('an unedited marked file is no change, and a marked file missing from the work tree (a sparse checkout) neither', () => {
    git(repo, 'update-index', '--skip-worktree', 'settings.py', 'docs/guide.md');
    fs.rmSync(path.join(repo, 'docs', 'guide.md'));
    // Touched, same bytes: the stat data differs, the blob does not.
    fs.utimesSync(path.join(repo, 'settings.py'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    assert.deepEqual(uncheckedEdits(repo, path.join(repo, '.git')), []);
    assert.equal(git(repo, 'status', '--porcelain'), '');
  });

  it('an edit that keeps the size is told by the bytes, one that changes it by the size', () => {
    const sized = committedRepo(path.join(tempDir('unchecked-sized'), 'r'), { 'settings.py': SETTINGS }, 'first');
    git(sized, 'update-index', '--skip-worktree', 'settings.py');
    fs.writeFileSync(path.join(sized, 'settings.py'), SETTINGS.replace('localhost', 'LOCALHOST'));
    assert.deepEqual(uncheckedEdits(sized, path.join(sized, '.git')), [{ path: 'settings.py', deleted: false }]);
    fs.writeFileSync(path.join(sized, 'settings.py'), LOCAL);
    assert.deepEqual(uncheckedEdits(sized, path.join(sized, '.git')), [{ path: 'settings.py', deleted: false }]);
  });

  it('a marked file whose folder became a symbolic link (to outside the work tree) is not read through it', () => {
    const linked = committedRepo(path.join(tempDir('unchecked-link'), 'r'), { 'conf/settings.py': SETTINGS }, 'first');
    git(linked, 'update-index', '--skip-worktree', 'conf/settings.py');
    const outside = tempDir('unchecked-outside');
    fs.writeFileSync(path.join(outside, 'settings.py'), LOCAL);
    fs.rmSync(path.join(linked, 'conf'), { recursive: true });
    fs.symlinkSync(outside, path.join(linked, 'conf'));
    assert.deepEqual(uncheckedEdits(linked, path.join(linked, '.git')), []);
  });

  for (const mark of ['--skip-worktree', '--assume-unchanged']) {
    it(`${mark}: the edit git status hides is what search answers, from the top and from a subfolder`, async () => {
      git(repo, 'update-index', '--no-skip-worktree', 'settings.py');
      git(repo, 'update-index', '--no-assume-unchanged', 'settings.py');
      git(repo, 'update-index', mark, 'settings.py');
      fs.writeFileSync(path.join(repo, 'settings.py'), LOCAL);
      assert.equal(git(repo, 'status', '--porcelain'), '', 'git status shows no change');
      assert.deepEqual(uncheckedEdits(repo, path.join(repo, '.git')), [{ path: 'settings.py', deleted: false }]);
      for (const cwd of [repo, path.join(repo, 'app')]) {
        const results = await runJson<Result[]>(['search', 'DATABASE_HOST', '-k', '3', '--min-match', '0'], cwd, cold);
        const texts = results.filter((r) => r.path === 'settings.py').map((r) => r.text).join('\n');
        assert.match(texts, /prod\.internal\.example/, `${cwd}: ${JSON.stringify(results)}`);
        assert.doesNotMatch(texts, /localhost/);
      }
      // --committed-only answers from the commit, as ever.
      const committed = await runJson<Result[]>(['search', 'DATABASE_HOST', '-k', '3', '--min-match', '0', '--committed-only'], repo, cold);
      assert.match(committed.filter((r) => r.path === 'settings.py').map((r) => r.text).join('\n'), /localhost/);
      fs.writeFileSync(path.join(repo, 'settings.py'), SETTINGS);
    });
  }
});
