// A repository inside a plain folder, or added as a source, is what they hold: hostile. Its own config can name
// programs git runs on its behalf (core.fsmonitor when its index is read; a clean filter when git status looks at
// a file .gitattributes assigns to it). Indexing and searching the folder or the source must run none of them.
// Real git repositories made by the test, the built CLI, the real model.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { git, runCli, runJson, tempDir } from '../helpers.js';

/** A repository whose config names programs that leave a marker file when run; returns the markers' folder. */
function armedRepository(dir: string, marks: string): void {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  fs.writeFileSync(path.join(dir, 'retention.py'), 'def retention_days(topic):\n    return topic.days or 7\n');
  fs.writeFileSync(path.join(dir, '.gitattributes'), '*.py filter=armed\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  const program = (name: string) => {
    const file = path.join(marks, `${name}.sh`);
    fs.writeFileSync(file, `#!/bin/sh\ntouch ${JSON.stringify(path.join(marks, `${name}.ran`))}\ncat\n`, { mode: 0o755 });
    return file;
  };
  git(dir, 'config', 'core.fsmonitor', program('fsmonitor'));
  git(dir, 'config', 'filter.armed.clean', program('clean'));
  git(dir, 'config', 'filter.armed.smudge', program('smudge'));
  // An edit after the commit: git status would run the clean filter to compare it.
  fs.appendFileSync(path.join(dir, 'retention.py'), '# edited\n');
}

const ran = (marks: string) => fs.readdirSync(marks).filter((f) => f.endsWith('.ran'));

describe('a repository inside what ocrag reads runs nothing of its own', () => {
  test('nested in a plain folder: index, search and list run no fsmonitor or filter program', async () => {
    const marks = tempDir('armed-marks');
    const folder = path.join(tempDir('armed-folder'), 'kb');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nTopics keep messages for seven days.\n');
    armedRepository(path.join(folder, 'vendor', 'lib'), marks);
    assert.equal((await runCli(['index'], folder)).code, 0);
    const hits = await runJson<{ path: string }[]>(['search', 'retention days of a topic', '-k', '3'], folder);
    assert.ok(hits.some((h) => h.path === 'vendor/lib/retention.py'), JSON.stringify(hits.map((h) => h.path)));
    await runJson(['list', '--json'], folder);
    assert.deepEqual(ran(marks), []);
  });

  test('added as a source: index and search run no fsmonitor or filter program, and edits are still seen', async () => {
    const marks = tempDir('armed-marks');
    const source = path.join(tempDir('armed-source'), 'lib');
    armedRepository(source, marks);
    const repo = path.join(tempDir('armed-home'), 'app');
    fs.mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, 'main.py'), 'print("hello")\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'app');
    assert.equal((await runCli(['add', source], repo)).code, 0);
    const hits = await runJson<{ path: string; text: string }[]>(['search', 'retention days of a topic', '-k', '3'], repo);
    const found = hits.find((h) => h.path === 'lib:retention.py');
    assert.ok(found, JSON.stringify(hits.map((h) => h.path)));
    assert.match(found.text, /# edited/);
    assert.deepEqual(ran(marks), []);
  });
});
