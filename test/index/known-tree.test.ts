// A tree the index already holds is filed for a new branch (or detached HEAD) from the manifests alone; anything
// else (another tree, other settings) is left to a real index run.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { openContext } from '../../src/index/context.js';
import { indexKnownTree } from '../../src/index/known-tree.js';
import { manifestKey, readManifest } from '../../src/store/manifest.js';
import { git, makeFixtureRepo, runJson } from '../helpers.js';

describe('indexing a tree the index already holds', () => {
  let repo: string;
  let manifests: string;
  before(async () => {
    repo = makeFixtureRepo();
    await runJson(['index'], repo);
    manifests = path.join(repo, '.ocrag', 'manifests');
  });

  test('a new branch on an indexed commit gets the same manifest under its own name', async () => {
    const main = readManifest(manifests, manifestKey('main', ''))!;
    git(repo, 'checkout', '-q', '-b', 'twin');
    const summary = indexKnownTree(await openContext(repo));
    assert.ok(summary, 'answered from the manifests');
    assert.deepEqual([summary.branch, summary.upToDate, summary.chunksEmbedded, summary.files], ['twin', true, 0, Object.keys(main.files).length]);
    const twin = readManifest(manifests, manifestKey('twin', ''))!;
    assert.deepEqual([twin.branch, twin.commit, twin.tree], ['twin', git(repo, 'rev-parse', 'HEAD'), main.tree]);
    assert.deepEqual([twin.files, twin.skipped, twin.skippedBlobs], [main.files, main.skipped, main.skippedBlobs]);
    // The copy is as good as a run's: search on the branch needs no update.
    const results = await runJson<{ path: string }[]>(['search', 'parse command line arguments', '-k', '3', '--no-update'], repo);
    assert.ok(results.length > 0);
  });

  test('a detached HEAD on an indexed commit is filed by commit', async () => {
    const commit = git(repo, 'rev-parse', 'HEAD');
    git(repo, 'checkout', '-q', '--detach', commit);
    assert.ok(indexKnownTree(await openContext(repo)));
    assert.equal(readManifest(manifests, manifestKey(null, commit))?.commit, commit);
    git(repo, 'checkout', '-q', 'twin');
  });

  test('a new commit of the same tree (an amend that changed no file) is filed under the new commit', async () => {
    const before = readManifest(manifests, manifestKey('twin', ''))!;
    git(repo, 'commit', '-q', '--amend', '--no-edit', '--date', '2001-01-01T00:00:00');
    const amended = git(repo, 'rev-parse', 'HEAD');
    assert.notEqual(amended, before.commit);
    const summary = indexKnownTree(await openContext(repo));
    assert.deepEqual([summary?.commit, summary?.upToDate, summary?.chunksEmbedded], [amended, true, 0]);
    const after = readManifest(manifests, manifestKey('twin', ''))!;
    assert.deepEqual([after.commit, after.tree, after.files], [amended, before.tree, before.files]);
  });

  test('a new tree or other settings need a real run', async () => {
    fs.appendFileSync(path.join(repo, 'src/util/color.ts'), '\nexport const BLACK = "#000000";\n');
    git(repo, 'commit', '-q', '-am', 'new tree');
    assert.equal(indexKnownTree(await openContext(repo)), null);
    git(repo, 'checkout', '-q', '-b', 'narrow', 'main');
    assert.equal(indexKnownTree(await openContext(repo, { exclude: ['**/*.py'] })), null);
    assert.equal(readManifest(manifests, manifestKey('narrow', '')), null);
  });
});
