import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { answersOf, cloneRepo, git, makeFixtureRepo, runCli, runJson, tempDir } from '../helpers.js';
import { seamEnv } from '../support/seams.js';

interface ImportSummary {
  manifestWritten: boolean;
  chunks: number;
  chunksAdded: number;
}

const QUERIES = ['parse command line arguments', 'evict least recently used cache entry'];

const searches = (repo: string) => answersOf(repo, QUERIES);
const clone = cloneRepo;

function staging(repo: string): string[] {
  const dir = path.join(repo, '.ocrag');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.startsWith('staging-')) : [];
}

/** Runs an import that is killed at `moment` (a crash point of src/share/import.ts, see src/index/crash-point.ts). */
async function killedImport(artifact: string, repo: string, moment: string): Promise<void> {
  const r = await runCli(['import', artifact], repo, seamEnv({ crashAt: moment }));
  assert.notEqual(r.code, 0, `the import killed at ${moment} did not stop: ${r.stderr}`);
}

describe('a killed import leaves the previous index intact', () => {
  let origin: string;
  let artifact: string;
  let expected: unknown[];

  before(async () => {
    origin = makeFixtureRepo();
    await runJson(['index'], origin);
    expected = await searches(origin);
    artifact = path.join(tempDir('crash-artifact'), 'index.tar');
    await runJson(['export', '--out', artifact], origin);
  });

  for (const moment of ['import.staging', 'import.staged']) {
    test(`killed while its new store is staged (${moment}): no store appears, the next import cleans up and completes`, async () => {
      const repo = clone(origin, 'killed');
      await killedImport(artifact, repo, moment);
      assert.ok(!fs.existsSync(path.join(repo, '.ocrag', 'lance')), 'no store was placed');
      assert.deepEqual(fs.existsSync(path.join(repo, '.ocrag', 'manifests')) ? fs.readdirSync(path.join(repo, '.ocrag', 'manifests')) : [], []);
      const search = await runCli(['search', 'parse arguments', '--no-update'], repo);
      assert.equal(search.code, 4, 'no index to search yet');

      const imported = await runJson<ImportSummary>(['import', artifact], repo);
      assert.equal(imported.chunksAdded, imported.chunks);
      assert.deepEqual(staging(repo), []);
      assert.deepEqual(await searches(repo), expected);
    });
  }

  test('what a killed import left staged is removed by gc and by clear', async () => {
    for (const command of [['gc'], ['clear']]) {
      const repo = clone(origin, `leftover-${command[0]}`);
      await killedImport(artifact, repo, 'import.staged');
      assert.equal(staging(repo).length, 1, 'the killed import left its staging folder');
      const r = await runCli(command, repo);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(staging(repo), [], `${command[0]} removed it`);
    }
  });

  test('killed after its store was placed, before the manifest: importing again registers it and adds nothing', async () => {
    const repo = clone(origin, 'placed');
    await killedImport(artifact, repo, 'import.placed');
    assert.ok(fs.existsSync(path.join(repo, '.ocrag', 'lance')));
    const again = await runJson<ImportSummary>(['import', artifact], repo);
    assert.deepEqual([again.chunksAdded, again.manifestWritten], [0, true]);
    assert.equal((await runJson<{ chunksEmbedded: number }>(['index'], repo)).chunksEmbedded, 0);
    assert.deepEqual(await searches(repo), expected);
  });

  test('killed while adding to an existing index: its manifests and answers are as before', async () => {
    const repo = clone(origin, 'merging');
    fs.writeFileSync(path.join(repo, 'local.ts'), 'export function localWork(): number {\n  return 1;\n}\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'local work');
    await runJson(['index'], repo);
    const manifests = path.join(repo, '.ocrag', 'manifests');
    const listing = fs.readdirSync(manifests).map((f) => [f, fs.readFileSync(path.join(manifests, f), 'utf8')]);
    const answers = await searches(repo);

    await killedImport(artifact, repo, 'import.merging');
    assert.deepEqual(fs.readdirSync(manifests).map((f) => [f, fs.readFileSync(path.join(manifests, f), 'utf8')]), listing);
    assert.deepEqual(await searches(repo), answers);
    const imported = await runJson<ImportSummary>(['import', artifact], repo);
    assert.equal(imported.manifestWritten, true);
  });
});
