import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import type { TreeEntry } from '../../src/git/tree.js';
import { classifyContent, selectFiles } from '../../src/index/select.js';

const entry = (path: string, size = 100, kind: TreeEntry['kind'] = 'file'): TreeEntry => ({ path, size, kind, blob: 'a'.repeat(40) });

test('path rules: kinds, secrets, lock files, binaries, size, globs', () => {
  const config = { ...DEFAULT_CONFIG, exclude: ['docs/**', '*.snap'], maxFileBytes: 1000 };
  const { files, skipped } = selectFiles(
    [entry('src/a.ts'), entry('link', 10, 'symlink'), entry('sub', 0, 'submodule'), entry('config/.env.production'), entry('keys/server.pem'), entry('package-lock.json'), entry('img/x.PNG'), entry('big.ts', 5000), entry('docs/a.md'), entry('ui/__snapshots__/a.snap'), entry('dist/app.min.js')],
    config,
  );
  assert.deepEqual(files.map((f) => f.path), ['src/a.ts']);
  assert.deepEqual(Object.fromEntries(skipped.map((s) => [s.path, s.reason])), {
    link: 'symlink',
    sub: 'submodule',
    'config/.env.production': 'secret',
    'keys/server.pem': 'secret',
    'package-lock.json': 'lock file',
    'img/x.PNG': 'binary',
    'big.ts': 'too large',
    'docs/a.md': 'excluded',
    'ui/__snapshots__/a.snap': 'excluded',
    'dist/app.min.js': 'generated',
  });
});

test('include globs narrow the selection; secrets can be allowed', () => {
  const { files } = selectFiles([entry('src/a.ts'), entry('lib/b.py'), entry('.env')], { ...DEFAULT_CONFIG, include: ['src/**', '.env'], skipSecrets: false });
  assert.deepEqual(files.map((f) => f.path), ['src/a.ts', '.env']);
});

test('content rules: NUL anywhere, LFS pointers, minified text, invalid UTF-8 kept', () => {
  assert.deepEqual(classifyContent(Buffer.from('abc\0def'), 1000), { reason: 'binary' });
  assert.deepEqual(classifyContent(Buffer.concat([Buffer.alloc(20000, 'a'), Buffer.from([0])]), 1000), { reason: 'binary' });
  assert.deepEqual(classifyContent(Buffer.from('version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 3\n'), 1000), { reason: 'lfs pointer' });
  assert.deepEqual(classifyContent(Buffer.from('x'.repeat(50000) + '\nshort\n'), 1000), { reason: 'minified' });
  const latin1 = classifyContent(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), 1000);
  assert.ok('text' in latin1 && latin1.text === 'caf\uFFFD\n');
});

test('PDFs are read up to 32 MB whatever maxFileBytes, and told by their header', () => {
  const config = { ...DEFAULT_CONFIG, maxFileBytes: 1000 };
  const MB = 1024 * 1024;
  const { files, skipped } = selectFiles([entry('spec.pdf', 5 * MB), entry('scan.PDF', 40 * MB), entry('notes.txt', 5 * MB)], config);
  assert.deepEqual(files.map((f) => f.path), ['spec.pdf']);
  assert.deepEqual(Object.fromEntries(skipped.map((s) => [s.path, s.reason])), { 'scan.PDF': 'too large', 'notes.txt': 'too large' });
  assert.deepEqual(classifyContent(Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n', 'latin1'), 1000), { pdf: true });
});

test('binary formats are told by their first bytes, whatever the name, and skipped with what they are', () => {
  const kind = (bytes: number[] | string, tail: Buffer = Buffer.alloc(64, 0x41)) => classifyContent(Buffer.concat([Buffer.from(bytes as never), tail]), 1000);
  const zipOf = (firstEntry: string) => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(22), Buffer.from([firstEntry.length, 0, 0, 0]), Buffer.from(firstEntry)]);
  assert.deepEqual(classifyContent(zipOf('src/main.c'), 1000), { reason: 'binary (zip)' });
  assert.deepEqual(classifyContent(zipOf('[Content_Types].xml'), 1000), { reason: 'binary (office document)' });
  assert.deepEqual(classifyContent(zipOf('word/document.xml'), 1000), { reason: 'binary (office document)' });
  assert.deepEqual(kind([0x1f, 0x8b, 0x08]), { reason: 'binary (gzip)' });
  assert.deepEqual(kind([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), { reason: 'binary (png)' });
  assert.deepEqual(kind([0xff, 0xd8, 0xff, 0xe0]), { reason: 'binary (jpeg)' });
  assert.deepEqual(kind('GIF89a'), { reason: 'binary (gif)' });
  assert.deepEqual(kind('SQLite format 3\0'), { reason: 'binary (sqlite)' });
  assert.deepEqual(kind([0x7f, 0x45, 0x4c, 0x46]), { reason: 'binary (elf)' });
  assert.deepEqual(kind('BZh91AY&SY'), { reason: 'binary (bzip2)' });
  // Text that merely starts like one stays text; a PDF is read, not skipped.
  assert.ok('text' in classifyContent(Buffer.from('BZh is a prefix, not an archive\n'), 1000));
  assert.ok('text' in classifyContent(Buffer.from('GIF is an image format\n'), 1000));
  assert.deepEqual(classifyContent(Buffer.from('%PDF-1.7\n'), 1000), { pdf: true });
});
