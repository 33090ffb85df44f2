import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isMarkReason, parseMarkReason, type BlobState } from '../../src/store/blob-state.js';
import { knownBlobs, placeFiles, type Manifest } from '../../src/store/manifest.js';

const blob = (c: string) => c.repeat(40);

test('a stored mark reads back as the reason ocrag wrote, anything else as "binary"', () => {
  for (const reason of ['binary', 'lfs pointer', 'minified', 'empty'] as const) {
    assert.ok(isMarkReason(reason));
    assert.equal(parseMarkReason(reason), reason);
  }
  assert.equal(isMarkReason('chunks'), false);
  assert.equal(parseMarkReason('no such reason'), 'binary');
});

test('blobs with chunks or blank are indexed files; blobs with a content mark are skipped and remembered by blob', () => {
  const known = new Map<string, BlobState>([
    [blob('a'), 'chunks'],
    [blob('b'), 'empty'],
    [blob('c'), 'minified'],
  ]);
  const into: Pick<Manifest, 'files' | 'skipped' | 'skippedBlobs'> = { files: {}, skipped: {}, skippedBlobs: {} };
  placeFiles([{ path: 'a.ts', blob: blob('a') }, { path: 'blank.ts', blob: blob('b') }, { path: 'app.js', blob: blob('c') }, { path: 'new.ts', blob: blob('d') }], known, into);
  assert.deepEqual(into, { files: { 'a.ts': blob('a'), 'blank.ts': blob('b'), 'new.ts': blob('d') }, skipped: { 'app.js': 'minified' }, skippedBlobs: { 'app.js': blob('c') } });
  const manifest = { ...into, skipped: { ...into.skipped, 'big.bin': 'too large' } } as unknown as Manifest;
  assert.deepEqual([...knownBlobs(manifest)], [
    [blob('a'), 'chunks'],
    [blob('b'), 'chunks'],
    [blob('d'), 'chunks'],
    [blob('c'), 'minified'],
  ]);
});
