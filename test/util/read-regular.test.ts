import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { readRegularFile } from '../../src/util/read-regular.js';
import { tempDir } from '../helpers.js';

/*
 * What a source's scan or the work-tree overlay reads after a stat called the name a regular file: by then another
 * process may have put a symbolic link (to the user's own files) or a FIFO (which never answers) in its place.
 */
test('a regular file is read whole; past the limit only its size is told', () => {
  const dir = tempDir('regular');
  const file = path.join(dir, 'notes.md');
  fs.writeFileSync(file, 'the gazpacho protocol\n');
  const whole = readRegularFile(file, 1024)!;
  assert.deepEqual({ size: whole.size, bytes: whole.bytes }, { size: 22, bytes: Buffer.from('the gazpacho protocol\n') });
  assert.equal(whole.stat.ino, fs.statSync(file).ino, 'the stat is the file read');
  const past = readRegularFile(Buffer.from(file), 10)!;
  assert.deepEqual({ size: past.size, bytes: past.bytes }, { size: 22, bytes: Buffer.alloc(0) });
  assert.equal(readRegularFile(path.join(dir, 'gone.md'), 1024), null);
});

test('a symbolic link put where a file was is not followed, to a file or a folder', () => {
  const dir = tempDir('regular-link');
  const secret = path.join(tempDir('regular-secret'), 'history');
  fs.writeFileSync(secret, 'secret words\n');
  fs.symlinkSync(secret, path.join(dir, 'notes.md'));
  assert.equal(readRegularFile(path.join(dir, 'notes.md'), 1024), null);
  fs.symlinkSync(path.dirname(secret), path.join(dir, 'folder'));
  assert.equal(readRegularFile(path.join(dir, 'folder'), 1024), null);
});

test('a FIFO put where a file was is not waited on', () => {
  const dir = tempDir('regular-fifo');
  execFileSync('mkfifo', [path.join(dir, 'notes.md')]);
  const started = Date.now();
  assert.equal(readRegularFile(path.join(dir, 'notes.md'), 1024), null);
  assert.ok(Date.now() - started < 1000);
});
