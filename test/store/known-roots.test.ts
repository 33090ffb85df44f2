// This machine's list of indexed roots (the panel's switcher): what an index run records, what is listed, and
// what is never taken on trust from the files (a path not absolute and normal, an entry filed under another name).
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { indexedRoots, lastIndexRunAt, rememberIndexedRoot } from '../../src/store/known-roots.js';
import { tempDir } from '../helpers.js';
import { setSeams } from '../support/seams.js';

/** A folder with what an index run leaves: `.ocrag/store.json`. */
function indexedFolder(base: string, name: string): string {
  const root = path.join(base, name);
  fs.mkdirSync(path.join(root, '.ocrag'), { recursive: true });
  fs.writeFileSync(path.join(root, '.ocrag', 'store.json'), '{}');
  return fs.realpathSync(root);
}

describe('the roots this machine indexed', () => {
  let dir: string;
  let base: string;
  before(() => {
    dir = path.join(tempDir('known-roots'), 'roots');
    base = tempDir('known-roots-places');
    setSeams({ knownRootsDir: dir });
  });
  after(() => setSeams({}));
  const entries = () => fs.readdirSync(dir).sort();

  test('an index run records its root by real path; the latest first; a root or index folder gone is forgotten', async () => {
    const older = indexedFolder(base, 'older');
    const newer = indexedFolder(base, 'newer');
    fs.symlinkSync(older, path.join(base, 'link-to-older'));
    rememberIndexedRoot({ root: path.join(base, 'link-to-older'), kind: 'folder', index: path.join(base, 'link-to-older', '.ocrag') });
    await new Promise((r) => setTimeout(r, 5));
    rememberIndexedRoot({ root: newer, kind: 'folder', index: path.join(newer, '.ocrag') });
    assert.deepEqual(indexedRoots().map((r) => [r.root, r.kind, r.index]), [[newer, 'folder', path.join(newer, '.ocrag')], [older, 'folder', path.join(older, '.ocrag')]]);
    rememberIndexedRoot({ root: older, kind: 'folder', index: path.join(older, '.ocrag') });
    assert.deepEqual(indexedRoots().map((r) => r.root), [older, newer], 'one entry per root, moved up by its latest run');
    assert.equal(lastIndexRunAt(path.join(base, 'link-to-older')), indexedRoots()[0].indexedAt, 'asked by another spelling of the same root');
    assert.equal(lastIndexRunAt(base), null);
    assert.equal(entries().length, 2);
    fs.rmSync(newer, { recursive: true });
    fs.rmSync(path.join(older, '.ocrag'), { recursive: true });
    assert.deepEqual(indexedRoots(), []);
    assert.deepEqual(entries(), [], 'both entries were dropped');
  });

  test('a cleared store is not listed but not forgotten; a folder this user cannot read is not listed', () => {
    const cleared = indexedFolder(base, 'cleared');
    rememberIndexedRoot({ root: cleared, kind: 'folder', index: path.join(cleared, '.ocrag') });
    fs.rmSync(path.join(cleared, '.ocrag', 'store.json'));
    assert.deepEqual(indexedRoots(), []);
    assert.equal(entries().length, 1);
    fs.writeFileSync(path.join(cleared, '.ocrag', 'store.json'), '{}');
    assert.deepEqual(indexedRoots().map((r) => r.root), [cleared]);
    if (process.geteuid?.() !== 0) {
      fs.chmodSync(cleared, 0o000);
      try {
        assert.deepEqual(indexedRoots(), [], 'a folder this user cannot read');
      } finally {
        fs.chmodSync(cleared, 0o755);
      }
    }
    fs.rmSync(cleared, { recursive: true });
    indexedRoots();
  });

  test('entries that are not what a run writes are passed over: relative, unnormal or foreign paths, a wrong kind, another root\'s file name', () => {
    const real = indexedFolder(base, 'real');
    rememberIndexedRoot({ root: real, kind: 'folder', index: path.join(real, '.ocrag') });
    const [own] = entries();
    const good = JSON.parse(fs.readFileSync(path.join(dir, own), 'utf8'));
    const forged: Record<string, unknown>[] = [
      { ...good, root: 'relative/path' },
      { ...good, root: `${real}/../real` },
      { ...good, root: `${real}\u0000x` },
      { ...good, kind: 'anything' },
      { ...good, indexedAt: 'yesterday' },
      { ...good, index: '/etc' },
      { ...good, index: path.join(base, 'elsewhere', '.ocrag') },
    ];
    // Each under the file its own root names, so only the entry's checks can pass it over; the real one after each.
    for (const entry of forged) {
      const name = `${createHash('sha256').update(String(entry.root)).digest('hex').slice(0, 32)}.json`;
      fs.writeFileSync(path.join(dir, name), JSON.stringify(entry));
      assert.deepEqual(indexedRoots().map((r) => r.root), name === own ? [] : [real], JSON.stringify(entry));
      fs.rmSync(path.join(dir, name), { force: true });
      fs.writeFileSync(path.join(dir, own), JSON.stringify(good));
    }
    // The right content under another root's name: each root has one file, named by its path.
    fs.writeFileSync(path.join(dir, `${'0'.repeat(32)}.json`), JSON.stringify(good));
    fs.writeFileSync(path.join(dir, 'torn.json'), '{"root": "/');
    assert.deepEqual(indexedRoots().map((r) => r.root), [real]);
  });

  test('a list it cannot write costs the run nothing', () => {
    const file = path.join(tempDir('known-roots-file'), 'not-a-folder');
    fs.writeFileSync(file, '');
    setSeams({ knownRootsDir: path.join(file, 'roots') });
    try {
      assert.doesNotThrow(() => rememberIndexedRoot({ root: base, kind: 'folder', index: path.join(base, '.ocrag') }));
      assert.deepEqual(indexedRoots(), []);
    } finally {
      setSeams({ knownRootsDir: dir });
    }
  });
});
