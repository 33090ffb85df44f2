// An import into a new store, and an index run reading through a team remote into an empty one, leave search ready
// as a full index does: the search set's snapshot is written from the rows verified and stored, byte for byte the one
// a search would build from the store, so the first search only restores it. A damaged or stale snapshot is never
// answered from. Real repositories, LanceDB, the model and a team store in a folder.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, test } from 'node:test';
import { snapshotDamage } from '../../src/search/resident-snapshot.js';
import { firstSearchLoads } from '../search/first-search-loads.js';
import { cloneRepo, git, makeFixtureRepo, runCli, runJson, tempDir, TEST_CACHE } from '../helpers.js';

// The in-process searches below load the model from the test cache, as the CLI runs do.
process.env.OCRAG_CACHE ??= TEST_CACHE;

const QUERIES = ['parse command line arguments', 'parseArgs', 'retry a request with backoff', 'connect to the database', 'evict least recently used cache entry'];
const HERON = '/** Counts the herons wading in a pond at dawn. */\nexport function countHerons(pond: string[]): number {\n  return pond.filter((bird) => bird === "heron").length;\n}\n';

const residentDir = (repo: string) => path.join(repo, '.ocrag', 'resident');
const snapshots = (repo: string) => (fs.existsSync(residentDir(repo)) ? fs.readdirSync(residentDir(repo)).filter((f) => f.endsWith('.snap')).map((f) => path.join(residentDir(repo), f)) : []);

function onlySnapshot(repo: string): string {
  const found = snapshots(repo);
  assert.equal(found.length, 1, `one snapshot in ${repo}: ${found.join(', ')}`);
  return found[0];
}

async function answers(repo: string, queries = QUERIES): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const q of queries) out.push(await runJson(['search', q, '-k', '5', '--no-update'], repo));
  return out;
}

/** The snapshot a search builds from the store alone (the resident folder set aside meanwhile, then put back), and its answers. */
async function builtBySearch(repo: string, queries = QUERIES): Promise<{ bytes: Buffer; answers: unknown[] }> {
  const aside = `${residentDir(repo)}.aside`;
  fs.renameSync(residentDir(repo), aside);
  try {
    const found = await answers(repo, queries);
    return { bytes: fs.readFileSync(onlySnapshot(repo)), answers: found };
  } finally {
    fs.rmSync(residentDir(repo), { recursive: true, force: true });
    fs.renameSync(aside, residentDir(repo));
  }
}


describe('an import into a new store leaves search ready', () => {
  let origin: string;
  let artifact: string;
  let imported: string;

  before(async () => {
    origin = makeFixtureRepo();
    assert.equal((await runCli(['index'], origin)).code, 0);
    artifact = path.join(tempDir('import-snapshot'), 'index.tar');
    await runJson(['export', '--out', artifact], origin);
    imported = cloneRepo(origin, 'import-snapshot');
    await runJson(['import', artifact], imported);
  });

  test('the import writes the snapshot a full index writes, and the first search restores it without reading the store', async () => {
    const written = fs.readFileSync(onlySnapshot(imported));
    const indexed = cloneRepo(origin, 'import-snapshot-indexed');
    assert.equal((await runCli(['index'], indexed)).code, 0);
    assert.ok(written.equals(fs.readFileSync(onlySnapshot(indexed))), 'byte for byte the snapshot of a full index of the same commit');
    const loads = await firstSearchLoads(imported);
    assert.equal(loads.fromStore, 0, 'no chunk read back from the store');
    assert.ok(loads.fromSnapshot > 0, 'the set came from the snapshot');
    const built = await builtBySearch(imported);
    assert.ok(written.equals(built.bytes), 'byte for byte the snapshot a search builds from the store');
    assert.deepEqual(await answers(imported), built.answers);
    assert.deepEqual(await answers(imported), await answers(indexed), 'the answers of a full index');
  });

  test('a damaged snapshot is never answered from: the set is built from the store and written whole again', async () => {
    const repo = cloneRepo(origin, 'import-snapshot-damaged');
    await runJson(['import', artifact], repo);
    const expected = await builtBySearch(repo);
    const file = onlySnapshot(repo);
    const bytes = fs.readFileSync(file);
    bytes[Math.floor(bytes.length / 2)] ^= 0x55;
    fs.writeFileSync(file, bytes);
    assert.notEqual(snapshotDamage(file, 512), null, 'doctor names it');
    const loads = await firstSearchLoads(repo);
    assert.ok(loads.fromStore > 0, 'the set was built from the store');
    assert.deepEqual(await answers(repo), expected.answers);
    assert.ok(fs.readFileSync(onlySnapshot(repo)).equals(expected.bytes), 'and written whole again');
  });

  test("a stale snapshot (another tree's set under this store's name) is topped up from the store, as a search builds it", async () => {
    const repo = cloneRepo(origin, 'import-snapshot-stale');
    await runJson(['import', artifact], repo);
    // The set of the tree before a commit, taken where the commit's will be.
    const older = cloneRepo(origin, 'import-snapshot-older');
    git(older, 'rm', '-q', 'src/cli/args.ts');
    git(older, 'commit', '-qm', 'drop args');
    assert.equal((await runCli(['index'], older)).code, 0);
    const file = onlySnapshot(repo);
    fs.copyFileSync(onlySnapshot(older), file);
    const loads = await firstSearchLoads(repo);
    assert.ok(loads.fromStore > 0, 'what the stale set lacks came from the store');
    assert.deepEqual((await answers(repo, ['parseArgs']))[0], (await builtBySearch(repo, ['parseArgs'])).answers[0]);
  });
});

describe('an index run reading through a team remote into an empty store leaves search ready', () => {
  test('copied and embedded rows in hand: the snapshot a search builds, the first search restores it', async () => {
    const origin = makeFixtureRepo();
    const remote = { OCRAG_REMOTE: pathToFileURL(path.join(tempDir('read-through-snapshot'), 'team')).href };
    await runJson(['publish'], cloneRepo(origin, 'read-through-publisher'), remote);
    // A commit past what was published: its chunks are copied, the new file's embedded, and no set is published for it.
    const clone = cloneRepo(origin, 'read-through-snapshot');
    fs.writeFileSync(path.join(clone, 'src/heron.ts'), HERON);
    git(clone, 'add', '.');
    git(clone, 'commit', '-qm', 'herons');
    const run = await runJson<{ chunksEmbedded: number; remote?: { chunks: number; searchSet: boolean } }>(['index'], clone, remote);
    assert.ok((run.remote?.chunks ?? 0) > 10 && run.chunksEmbedded > 0, JSON.stringify(run));
    assert.equal(run.remote?.searchSet, false, 'no published set for this commit');
    const written = fs.readFileSync(onlySnapshot(clone));
    const loads = await firstSearchLoads(clone);
    assert.equal(loads.fromStore, 0, 'no chunk read back from the store');
    const queries = [...QUERIES, 'countHerons'];
    const built = await builtBySearch(clone, queries);
    assert.ok(written.equals(built.bytes), 'byte for byte the snapshot a search builds from the store');
    const now = await answers(clone, queries);
    assert.equal((now[5] as { path: string }[])[0]?.path, 'src/heron.ts');
    assert.deepEqual(now, built.answers);
  });
});
