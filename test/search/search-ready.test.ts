// An index run leaves search ready: it writes the search set's snapshot from the chunks it stored, so the first
// search only restores it; a commit's run appends a segment instead of rewriting it; a run killed while writing
// either leaves a usable index; a damaged segment is found and never answered from. Real repo, LanceDB and model.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { residentLoads } from '../../src/search/resident.js';
import { snapshotBlobs, snapshotDamage } from '../../src/search/resident-snapshot.js';
import { MAX_SEGMENTS, writeSegment } from '../../src/search/resident-segments.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { git, makeFixtureRepo, runCli, runJson } from '../helpers.js';
import { seamEnv } from '../support/seams.js';

const QUERIES = ['parse command line arguments', 'parseArgs', 'retry a request with backoff', 'connect to the database'];
const HERON = '/** Counts the herons wading in a pond at dawn. */\nexport function countHerons(pond: string[]): number {\n  return pond.filter((bird) => bird === "heron").length;\n}\n';

const residentDir = (repo: string) => path.join(repo, '.ocrag', 'resident');
const filesOf = (repo: string, ext: string) => (fs.existsSync(residentDir(repo)) ? fs.readdirSync(residentDir(repo)).filter((f) => f.endsWith(ext)).map((f) => path.join(residentDir(repo), f)) : []);
/** Every file of the resident folder with its size and modification time: unchanged means nothing was written. */
const state = (repo: string) => Object.fromEntries(fs.readdirSync(residentDir(repo)).map((f) => [f, `${fs.statSync(path.join(residentDir(repo), f)).size}@${fs.statSync(path.join(residentDir(repo), f)).mtimeMs}`]));

async function answers(repo: string, queries = QUERIES): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const q of queries) out.push(await runJson(['search', q, '-k', '5', '--no-update'], repo));
  return out;
}

/** The answers of a search set built from the store alone (the resident folder set aside meanwhile, then put back). */
async function rebuiltAnswers(repo: string, queries = QUERIES): Promise<unknown[]> {
  const aside = `${residentDir(repo)}.aside`;
  fs.renameSync(residentDir(repo), aside);
  try {
    return await answers(repo, queries);
  } finally {
    fs.rmSync(residentDir(repo), { recursive: true, force: true });
    fs.renameSync(aside, residentDir(repo));
  }
}

function commitFile(repo: string, rel: string, text: string): void {
  fs.writeFileSync(path.join(repo, rel), text);
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', `add ${rel}`);
}

async function index(repo: string, env: NodeJS.ProcessEnv = {}): Promise<number> {
  return (await runCli(['index'], repo, env)).code;
}

describe('an index run leaves search ready', () => {
  let repo: string;

  before(async () => {
    repo = makeFixtureRepo();
    assert.equal(await index(repo), 0);
  });

  test('the run writes the snapshot, and the first search restores it without reading the store', async () => {
    assert.equal(filesOf(repo, '.snap').length, 1, 'the index run wrote the snapshot');
    const loads = { ...residentLoads };
    const workspace = await openWorkspace(repo);
    try {
      const found = await workspace.search('parseArgs', { k: 1 });
      assert.equal(found[0]?.path, 'src/cli/args.ts');
    } finally {
      await workspace.close();
    }
    assert.equal(residentLoads.fromStore - loads.fromStore, 0, 'no chunk was read back from the store');
    assert.ok(residentLoads.fromSnapshot > loads.fromSnapshot, 'the set came from the snapshot');
    const before = state(repo);
    assert.deepEqual(await answers(repo), await rebuiltAnswers(repo), 'answers as a set built from the store');
    assert.deepEqual(state(repo), before, 'a search of the whole tree had nothing to add');
  });

  test("a commit's run appends a segment, leaves the snapshot alone, and answers as a rebuilt set", async () => {
    const [snapshot] = filesOf(repo, '.snap');
    const written = fs.statSync(snapshot).mtimeMs;
    commitFile(repo, 'src/util/heron.ts', HERON);
    assert.equal(await index(repo), 0);
    assert.equal(fs.statSync(snapshot).mtimeMs, written, 'the snapshot itself was not rewritten');
    assert.equal(filesOf(repo, '.seg').length, 1, 'one segment beside it');
    const before = state(repo);
    const queries = [...QUERIES, 'countHerons'];
    const now = await answers(repo, queries);
    assert.equal((now[4] as { path: string }[])[0]?.path, 'src/util/heron.ts');
    assert.deepEqual(state(repo), before, 'the search restored snapshot and segment, and had nothing to load');
    assert.deepEqual(now, await rebuiltAnswers(repo, queries));
  });

  test('a damaged segment is found, never answered from, and the set is built anew', async () => {
    const [segment] = filesOf(repo, '.seg');
    const [snapshot] = filesOf(repo, '.snap');
    const queries = [...QUERIES, 'countHerons'];
    const expected = await rebuiltAnswers(repo, queries);
    const bytes = fs.readFileSync(segment);
    bytes[bytes.length - 3] ^= 0x55;
    fs.writeFileSync(segment, bytes);
    assert.match(snapshotDamage(snapshot, 512) ?? '', /segment/, 'doctor names it');
    assert.deepEqual(await answers(repo, queries), expected);
    assert.equal(fs.existsSync(segment), false, 'the damaged segment is gone');
    assert.equal(snapshotDamage(filesOf(repo, '.snap')[0], 512), null, 'and the set written anew is whole');
  });

  test('a run that finds the segments at their limit writes the snapshot anew with them inside', async () => {
    const [snapshot] = filesOf(repo, '.snap');
    const { id } = snapshotBlobs(snapshot, 512)!;
    // Segments that add nothing stand for the commits that filled the limit.
    for (let seq = 1; seq <= MAX_SEGMENTS; seq++) writeSegment(snapshot, id!, seq, 512, { rows: [], empty: [] });
    commitFile(repo, 'src/util/egret.ts', HERON.replace(/[Hh]eron/g, (w) => (w[0] === 'H' ? 'Egret' : 'egret')));
    assert.equal(await index(repo), 0);
    assert.deepEqual(filesOf(repo, '.seg'), [], 'compacted');
    const before = state(repo);
    const queries = [...QUERIES, 'countEgrets', 'countHerons'];
    const now = await answers(repo, queries);
    assert.equal((now[4] as { path: string }[])[0]?.path, 'src/util/egret.ts');
    assert.deepEqual(state(repo), before, 'nothing to load');
    assert.deepEqual(now, await rebuiltAnswers(repo, queries));
  });
});

describe('an index run killed while writing the search set', () => {
  test('inside a segment: the snapshot before it stays, and the next search finds the commit', async () => {
    const repo = makeFixtureRepo();
    assert.equal(await index(repo), 0);
    const before = state(repo);
    commitFile(repo, 'src/util/heron.ts', HERON);
    assert.notEqual(await index(repo, seamEnv({ crashAt: 'snapshot.segment' })), 0, 'killed');
    assert.deepEqual(filesOf(repo, '.seg'), [], 'no segment, torn or whole');
    assert.deepEqual(Object.keys(state(repo)).filter((f) => !f.endsWith('.tmp')), Object.keys(before));
    const queries = [...QUERIES, 'countHerons'];
    const now = await answers(repo, queries);
    assert.equal((now[4] as { path: string }[])[0]?.path, 'src/util/heron.ts');
    assert.deepEqual(now, await rebuiltAnswers(repo, queries));
  });

  test('a rebuild writes the snapshot from the chunks it has in hand, and answers as a set built from the store', async () => {
    const repo = makeFixtureRepo();
    assert.equal(await index(repo), 0);
    const loads = { ...residentLoads };
    const workspace = await openWorkspace(repo);
    try {
      await workspace.index({ rebuild: true });
    } finally {
      await workspace.close();
    }
    assert.equal(residentLoads.fromStore - loads.fromStore, 0, 'no chunk was read back from the store');
    assert.ok(residentLoads.held > loads.held, 'the set came from the chunks in hand');
    assert.equal(filesOf(repo, '.snap').length, 1);
    assert.deepEqual(await answers(repo), await rebuiltAnswers(repo));
  });

  test('inside the snapshot: the index is searched as one never killed', async () => {
    const repo = makeFixtureRepo();
    assert.notEqual(await index(repo, seamEnv({ crashAt: 'snapshot.write' })), 0, 'killed');
    assert.deepEqual(filesOf(repo, '.snap'), [], 'no snapshot, torn or whole');
    const now = await answers(repo);
    assert.equal(filesOf(repo, '.snap').length, 1, 'the first search wrote it');
    assert.deepEqual(now, await rebuiltAnswers(repo));
    assert.equal(await index(repo), 0, 'and the next run finds the index up to date');
  });
});
