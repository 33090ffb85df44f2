// Index runs collect garbage by themselves once enough of the store is reclaimable, keeping what `ocrag gc` keeps.
// The runs over history are in-process (one CodeIndex following the checkouts, the model loaded once): the CLI
// prints the same summary; status, gc and search stay the CLI's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { answersOf, git, runJson, twoLanguageRepo } from '../helpers.js';
import { layoutOf, withIndex } from '../robustness/robustness-helpers.js';

interface Summary {
  upToDate: boolean;
  chunksEmbedded: number;
  garbageCollected?: { manifestsRemoved: number; chunksRemoved: number; bytesFreed: number };
}
interface Status {
  chunksStored: number;
  manifests: { branch: string | null; commit: string; chunks: number; approxBytes: number; keptByGc: boolean }[];
}

/** Ten commits, each rewriting one file: every detached checkout leaves a manifest and a blob's chunks behind. */
function repoWithHistory(): { repo: string; commits: string[] } {
  const repo = twoLanguageRepo();
  const commits = [git(repo, 'rev-parse', 'HEAD')];
  for (let i = 1; i < 10; i++) {
    fs.writeFileSync(path.join(repo, 'tools', 'backup.py'), `def backup_database_${i}(path):\n    """Copies the database file to backup number ${i}."""\n    return path + ".bak${i}"\n`);
    git(repo, 'commit', '-qam', `backup ${i}`);
    commits.push(git(repo, 'rev-parse', 'HEAD'));
  }
  return { repo, commits };
}

test('detached checkouts past keepManifests are collected by the index run, and HEAD answers as before', async () => {
  const { repo, commits } = repoWithHistory();
  fs.mkdirSync(path.join(repo, '.ocrag'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.ocrag', 'config.json'), JSON.stringify({ keepManifests: 2, autoGcPercent: 20 }));
  const collected: NonNullable<Summary['garbageCollected']>[] = [];
  await withIndex(repo, async (index) => {
    for (const commit of commits) {
      git(repo, 'checkout', '-q', '--detach', commit);
      const s: Summary = await index.index();
      if (s.garbageCollected) collected.push(s.garbageCollected);
    }
  });
  assert.ok(collected.length > 0, 'some run collected garbage');
  assert.ok(collected.every((c) => c.chunksRemoved > 0 && c.manifestsRemoved > 0));
  const status = await runJson<Status>(['status'], repo);
  // The checked-out commit, main's manifest and at most two recent others survive a collection; later runs may add some.
  assert.ok(status.manifests.length < commits.length, `${status.manifests.length} manifests of ${commits.length} runs`);
  const head = status.manifests.find((m) => m.commit === commits.at(-1));
  assert.ok(head && head.keptByGc && head.chunks > 0 && head.approxBytes > 0);
  const queries = ['copy the database to a backup', 'render report rows', 'split a path into parts'];
  const before = await answersOf(repo, queries);
  await runJson(['gc', '--keep', '1'], repo);
  assert.deepEqual(await answersOf(repo, queries), before);
});

test('autoGc false keeps every manifest', async () => {
  const { repo, commits } = repoWithHistory();
  fs.mkdirSync(path.join(repo, '.ocrag'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.ocrag', 'config.json'), JSON.stringify({ keepManifests: 1, autoGcPercent: 1, autoGc: false }));
  await withIndex(repo, async (index) => {
    for (const commit of commits.slice(0, 5)) {
      git(repo, 'checkout', '-q', '--detach', commit);
      const s: Summary = await index.index();
      assert.equal(s.garbageCollected, undefined);
    }
  });
  const status = await runJson<Status>(['status'], repo);
  assert.equal(status.manifests.length, 5);
  assert.equal(status.manifests.filter((m) => !m.keptByGc).length, 5 - 2, 'gc would keep the checked-out commit and one other');
});

test('after a first index the gc check holds the store\'s chunks (nothing to reclaim), and history after it is still collected', async () => {
  const { repo, commits } = repoWithHistory();
  fs.mkdirSync(path.join(repo, '.ocrag'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.ocrag', 'config.json'), JSON.stringify({ keepManifests: 1, autoGcPercent: 10 }));
  git(repo, 'checkout', '-q', '--detach', commits[0]);
  let collected = 0;
  await withIndex(repo, async (index) => {
    const first = await index.index();
    const check = JSON.parse(fs.readFileSync(path.join(repo, '.ocrag', 'gc-check.json'), 'utf8')) as { chunks: number };
    assert.equal(check.chunks, first.chunksTotal);
    for (const commit of commits.slice(1)) {
      git(repo, 'checkout', '-q', '--detach', commit);
      if ((await index.index()).garbageCollected) collected++;
    }
  });
  assert.ok(collected > 0, 'a later run collected garbage');
});

test('a commit run defers compaction to after its commit is searchable, and it happens there, autoGc off too', async () => {
  const repo = twoLanguageRepo();
  fs.mkdirSync(path.join(repo, '.ocrag'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.ocrag', 'config.json'), JSON.stringify({ autoGc: false }));
  const dataFiles = () => fs.readdirSync(path.join(layoutOf(repo).tables, 'chunk_refs.lance', 'data')).length;
  // Past LanceStore.compactIfFragmented's 24 fragments: each run of one file's commit adds one.
  const most = { files: 0 };
  await withIndex(repo, async (index) => {
    for (let i = 0; i < 28; i++) {
      fs.writeFileSync(path.join(repo, 'tools', 'backup.py'), `def backup_database_${i}(path):\n    return path + ".bak${i}"\n`);
      git(repo, 'commit', '-qam', `backup ${i}`);
      await index.index();
      most.files = Math.max(most.files, dataFiles());
    }
  });
  assert.ok(most.files <= 25, `at most 25 data files after any run, saw ${most.files}`);
});
