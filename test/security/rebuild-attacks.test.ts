// Attacks on the rebuild's swap: journals and build folders planted in .ocrag/ to move files from outside the
// index, to delete the index, or to follow a symlink out; two rebuilds at once; a refused read blamed on the disk.
// Each named after the attack. The built CLI, real git, LanceDB on disk (the model only where a search runs).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { git, makeFixtureRepo } from '../helpers.js';
import { storageProblem } from '../../src/util/storage-problem.js';
import { answers, assertTidy, copyOf, gate, ocrag, outside, startOcrag } from '../journeys/rebuild-helpers.js';
import { seamEnv } from '../support/seams.js';

/** Every entry of the index folder with its size and, for files, its bytes' length and head: what "intact" means. */
function indexState(repo: string): string[] {
  const dir = path.join(repo, '.ocrag');
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.name.endsWith('.lock'))
    .map((e) => {
      const file = path.join(e.parentPath ?? e.path, e.name);
      return `${path.relative(dir, file)} ${e.isFile() ? fs.readFileSync(file).toString('base64').slice(0, 64) : 'd'}`;
    })
    .sort();
}

/** A folder outside the repository holding what an attacker wants moved, followed or deleted. */
function victim(repo: string): string {
  const dir = path.join(path.dirname(repo), 'victim');
  fs.mkdirSync(path.join(dir, 'manifests'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'manifests', 'important.txt'), 'the user\'s own file\n');
  fs.writeFileSync(path.join(dir, 'store.json'), '{"mine": true}\n');
  fs.mkdirSync(path.join(dir, 'lance'));
  return dir;
}

describe('attacks on the rebuild swap', () => {
  let base: string;

  before(async () => {
    base = makeFixtureRepo();
    const indexed = await ocrag(['index'], base);
    assert.equal(indexed.code, 0, indexed.stderr);
  });

  /**
   * Plants `files` in a copy's .ocrag/, runs `status`, and checks the index and everything outside are as they were.
   * A planted link makes the folder not ocrag's own (store/index-folder.ts): `refused` is then the one line said, exit 4.
   */
  async function planted(label: string, plant: (ocragDir: string, outsideDir: string) => void, refused?: RegExp): Promise<string> {
    const repo = copyOf(base, label);
    const intact = indexState(repo);
    const away = victim(repo);
    const untouched = outside(repo);
    plant(path.join(repo, '.ocrag'), away);
    const status = await ocrag(['status', '--json'], repo);
    if (refused) {
      assert.equal(status.code, 4, status.stderr);
      assert.match(status.stderr, refused);
      assert.deepEqual(outside(repo), untouched, 'nothing outside the repository moved or changed');
      return repo;
    }
    assert.equal(status.code, 0, status.stderr);
    assert.equal((JSON.parse(status.stdout) as { upToDate: boolean }).upToDate, true, 'the index still answers for HEAD');
    assert.deepEqual(indexState(repo), intact, 'the index is exactly as it was');
    assert.deepEqual(outside(repo), untouched, 'nothing outside the repository moved or changed');
    return repo;
  }

  test('a journal naming a build folder outside .ocrag (../../victim) moves nothing', async () => {
    await planted('journal-path', (dir) => fs.writeFileSync(path.join(dir, 'rebuild-swap.json'), JSON.stringify({ build: '../../victim', entries: ['lance', 'manifests', 'store.json'] })));
  });

  test('a journal whose entries are paths (../../victim/store.json) moves nothing', async () => {
    await planted('journal-entries', (dir) => {
      fs.mkdirSync(path.join(dir, 'staging-4242'));
      fs.writeFileSync(path.join(dir, 'rebuild-swap.json'), JSON.stringify({ build: 'staging-4242', entries: ['../../victim/store.json'] }));
    });
  });

  test('a journal naming a staging folder that is a symlink to the victim folder: nothing is moved in from it', async () => {
    await planted('journal-symlink', (dir, away) => {
      fs.symlinkSync(away, path.join(dir, 'staging-4242'));
      fs.writeFileSync(path.join(dir, 'rebuild-swap.json'), JSON.stringify({ build: 'staging-4242', entries: ['lance', 'manifests', 'store.json'] }));
    }, /holds staging-4242, which is a symbolic link/);
  });

  test('a journal naming a build folder that is not there (to have the index removed as "replaced") deletes nothing', async () => {
    await planted('journal-missing', (dir) => fs.writeFileSync(path.join(dir, 'rebuild-swap.json'), JSON.stringify({ build: 'staging-4242', entries: [] })));
  });

  test('a torn journal is removed; a journal that is a symlink to a file of the user is refused, the file untouched', async () => {
    await planted('journal-torn', (dir) => fs.writeFileSync(path.join(dir, 'rebuild-swap.json'), '{"build": "stag'));
    await planted('journal-link', (dir, away) => fs.symlinkSync(path.join(away, 'store.json'), path.join(dir, 'rebuild-swap.json')), /holds rebuild-swap\.json, which is a symbolic link/);
  });

  test('a leftover "build folder" that is a symlink to the victim folder: refused, never followed', async () => {
    await planted('staging-symlink', (dir, away) => fs.symlinkSync(away, path.join(dir, 'staging-4242')), /holds staging-4242, which is a symbolic link/);
  });

  test('two rebuilds at once: one waits for the other, both end with the same whole index, nothing left behind', async () => {
    const repo = copyOf(base, 'two');
    const previous = await answers(repo);
    const [a, b] = await Promise.all([ocrag(['index', '--rebuild'], repo), ocrag(['index', '--rebuild'], repo)]);
    assert.deepEqual([a.code, b.code], [0, 0], a.stderr + b.stderr);
    assert.match(a.stderr + b.stderr, /waiting for another ocrag run/);
    assert.equal(await answers(repo), previous);
    assert.deepEqual(fs.readdirSync(path.join(repo, '.ocrag', 'manifests')), ['branch-main.json']);
    assertTidy(repo);
  });

  test('ocrag clear while a rebuild holds at the swap: it waits, then clears; the rebuild never reports an index it lost', async () => {
    const repo = copyOf(base, 'clear');
    const gates = path.join(path.dirname(repo), 'gates');
    const held = gate(gates, 'rebuild.built');
    const rebuild = startOcrag(['index', '--rebuild'], repo, seamEnv({ pauseDir: gates }));
    await held.reached();
    const clear = startOcrag(['clear'], repo);
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(fs.existsSync(path.join(repo, '.ocrag', 'store.json')), 'clear waits for the rebuild holding the index lock');
    held.release();
    const [r, c] = [await rebuild.ended, await clear.ended];
    assert.deepEqual([r.code, c.code], [0, 0], r.stderr + c.stderr);
    assert.deepEqual(fs.readdirSync(path.join(repo, '.ocrag')).filter((n) => n !== 'index.lock' && n !== 'own.json'), [], 'cleared after the rebuild, build folder included');
  });

  test('a rebuild asked on another branch keeps only that branch: the old store\'s other manifests go with it', async () => {
    const repo = copyOf(base, 'branches');
    git(repo, 'checkout', '-q', '-b', 'feature');
    const rebuilt = await ocrag(['index', '--rebuild'], repo);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.deepEqual(fs.readdirSync(path.join(repo, '.ocrag', 'manifests')), ['branch-feature.json']);
    git(repo, 'checkout', '-q', 'main');
    const back = await ocrag(['index', '--json'], repo);
    assert.equal((JSON.parse(back.stdout) as { chunksEmbedded: number }).chunksEmbedded, 0, 'main is filed again from blobs the new store holds');
  });

  test('a denied read of a file outside the index is not blamed on the index\'s disk (no exit 7)', () => {
    const denied = Object.assign(new Error("EACCES: permission denied, open '/home/u/notes/secret.md'"), { code: 'EACCES', syscall: 'open', path: '/home/u/notes/secret.md' });
    assert.equal(storageProblem(denied, '/repo/.ocrag'), null);
    const lock = Object.assign(new Error("EACCES: permission denied, open '/repo/.ocrag/index.lock.1.tmp'"), { code: 'EACCES', syscall: 'open', path: '/repo/.ocrag/index.lock.1.tmp' });
    assert.equal(storageProblem(lock, '/repo/.ocrag'), 'denied');
    assert.equal(storageProblem(new Error('LanceError(IO): Generic LocalFileSystem error: No space left on device (os error 28)')), 'full');
    assert.equal(storageProblem(Object.assign(new Error('kill EPERM'), { code: 'EPERM', syscall: 'kill' })), null);
  });
});
