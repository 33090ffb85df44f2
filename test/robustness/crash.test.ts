// An index run killed (SIGKILL) at any moment leaves the previous state searchable, and the next run ends
// exactly where a run that was never killed ends: same chunk ids (none twice), same manifests.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { before, describe, test } from 'node:test';
import { syntheticFiles } from '../../fixtures/synthetic-repo.js';
import { git, makeFixtureRepo } from '../helpers.js';
import { seamEnv, withSeams } from '../support/seams.js';
import { cli, copyRepo, isAlive, layoutOf, manifestsOf, storedContentCount, storedIds, withIndex, writeFiles } from './robustness-helpers.js';

// One LanceDB commit per blob for the first index and the killed runs: together they make ~30, past the
// compaction threshold (24 fragments), so the moments below include "between two writes" and "inside
// compaction". Re-runs write as usual (the chunk ids do not depend on how writes are grouped).
const GROUP = { chunksPerWrite: 1 };

/** Where a run is killed: a point of src/index/crash-point.ts, its n-th arrival, and an optional delay into the work after it. */
const MOMENTS = [
  'index.start',
  'index.listed',
  'embed.written:1',
  'store.contents:3',
  'embed.write:5+10',
  'store.contents:7+5',
  'embed.written:9',
  'embed.marks',
  'index.compact+40',
  'index.manifest',
  'index.done',
];

/** A query only the second commit can answer, and one both can. */
const NEW_QUERY = 'validate the crash recovery checkpoint journal';
const OLD_QUERY = 'parse command line arguments';

describe('an index run killed at any moment', () => {
  let base: string;
  let previous: ReturnType<typeof manifestsOf>;
  let expected: { ids: string[]; contents: number; manifests: ReturnType<typeof manifestsOf> };

  before(async () => {
    base = makeFixtureRepo();
    await withSeams(GROUP, () => withIndex(base, (index) => index.index()));
    previous = manifestsOf(base);
    // The second commit adds, changes, renames and deletes files.
    const added = Object.fromEntries([...syntheticFiles(10, 7, 'gen')].map((f) => [f.path, f.content]));
    added['gen/recovery.ts'] = '/** Validates the crash recovery checkpoint journal before replaying it. */\nexport function validateCheckpointJournal(entries: string[]): boolean {\n  return entries.every((e) => e.startsWith("ckpt:"));\n}\n';
    writeFiles(base, added);
    fs.appendFileSync(path.join(base, 'src/util/color.ts'), '\nexport const WHITE = "#ffffff";\n');
    git(base, 'mv', 'server/db.py', 'server/database.py');
    git(base, 'rm', '-q', 'README.md');
    git(base, 'add', '-A');
    git(base, 'commit', '-q', '-m', 'second commit');
    const clean = copyRepo(base, 'clean');
    await withIndex(clean, (index) => index.index());
    expected = { ids: await storedIds(clean), contents: await storedContentCount(clean), manifests: manifestsOf(clean) };
    assert.ok(expected.ids.length > (await storedIds(base)).length + 50, 'the second commit brings enough chunks for many writes');
  });

  test('the clean reference equals a full rebuild of the same commit for every blob it names', async () => {
    const rebuilt = copyRepo(base, 'rebuilt');
    await withIndex(rebuilt, (index) => index.index({ rebuild: true }));
    const rebuiltIds = new Set(await storedIds(rebuilt));
    assert.deepEqual(manifestsOf(rebuilt), expected.manifests);
    // The reference also keeps the first commit's chunks (until gc); the rebuild has exactly the second's.
    for (const id of rebuiltIds) assert.ok(expected.ids.includes(id));
  });

  for (const [i, moment] of MOMENTS.entries()) {
    test(`killed at ${moment}: previous state searchable, the next run completes it without duplicates`, async () => {
      const repo = copyRepo(base, 'crash');
      const layout = layoutOf(repo);
      const killed = await cli(['index'], repo, seamEnv({ ...GROUP, crashAt: moment }));
      assert.equal(killed.signal, 'SIGKILL', `the run reached ${moment} (exit ${killed.code}: ${killed.stderr})`);

      // The lock of the dead run is still there, naming a process that is gone (a delayed kill may come after the release).
      const timed = moment.includes('+');
      if (!timed || fs.existsSync(layout.lock)) assert.equal(isAlive((JSON.parse(fs.readFileSync(layout.lock, 'utf8')) as { pid: number }).pid), false);

      // Readers see a whole state: the old manifest, or (killed after the switch) the new one.
      const afterKill = manifestsOf(repo);
      const switched = isDeepStrictEqual(afterKill, expected.manifests);
      assert.ok(switched || isDeepStrictEqual(afterKill, previous), 'the manifest on disk is the old one or the new one');
      if (!timed) assert.equal(switched, moment === 'index.done', 'the manifest switches last');
      await withIndex(repo, async (index) => {
        const old = await index.search(OLD_QUERY, { k: 3, update: false });
        const fresh = await index.search(NEW_QUERY, { k: 3, update: false });
        assert.equal(old[0]?.path, 'src/cli/args.ts');
        assert.equal(fresh.some((r) => r.path === 'gen/recovery.ts'), switched);
        const current = afterKill['branch-main'].files;
        for (const r of [...old, ...fresh]) assert.ok(r.path in current, `${r.path} is in the state searched`);

        // The next run takes the stale lock over and finishes the work: by CLI, by the hook, or in-process.
        if (i === 0 || i === 5) {
          const rerun = await cli(['index'], repo);
          assert.equal(rerun.code, 0, rerun.stderr);
        } else if (i === 1 || i === 6) {
          const hook = await cli(['hook', 'post-commit'], repo);
          assert.equal(hook.code, 0, hook.stderr);
          assert.match(fs.readFileSync(layout.log, 'utf8'), /post-commit: (indexed|up to date) main@/);
        } else {
          await index.index();
        }
        assert.equal(fs.existsSync(layout.lock), false, 'the lock is released');
        const ids = await storedIds(repo);
        assert.equal(new Set(ids).size, ids.length, 'no chunk stored twice');
        assert.deepEqual([...ids].sort(), [...expected.ids].sort());
        assert.equal(await storedContentCount(repo), expected.contents, 'no content stored twice (one a killed run wrote is taken up)');
        assert.deepEqual(manifestsOf(repo), expected.manifests);
        const found = await index.search(NEW_QUERY, { k: 3, update: false });
        assert.equal(found[0]?.path, 'gen/recovery.ts');
      });
      fs.rmSync(path.dirname(repo), { recursive: true, force: true });
    });
  }
});
