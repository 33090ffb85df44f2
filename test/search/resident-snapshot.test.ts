// The resident set a one-shot search restores from `.ocrag/resident/` must answer exactly as the set built from
// the store, survive a torn file, and keep growing (new blobs) after a restore. Real repo, model and LanceDB.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { before, describe, test } from 'node:test';
import { packStrings, unpackStrings } from '../../src/search/packed-strings.js';
import { ListTable } from '../../src/search/postings.js';
import { nameWordsOf, packNameWords, unpackNameWords } from '../../src/search/file-names.js';
import { SectionDamageError } from '../../src/search/sectioned-file.js';
import { memberIndices } from '../../src/search/members.js';
import { readSnapshot } from '../../src/search/resident-snapshot.js';
import { LazyStrings } from '../../src/search/restored-chunk.js';
import { ResidentChunks } from '../../src/search/resident.js';
import type { StoreHandle } from '../../src/store/store-handle.js';
import { git, makeFixtureRepo, runCli, runJson, tempDir } from '../helpers.js';
import { firstSearchLoads } from './first-search-loads.js';

interface Result {
  path: string;
  startLine: number;
  endLine: number;
  symbol: string;
  score: number;
  text: string;
}

const QUERIES = ['parse command line arguments', 'parseArgs', 'retry a request with backoff', 'connect to the database'];

function residentFiles(repo: string): string[] {
  const dir = path.join(repo, '.ocrag', 'resident');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.snap')).map((f) => path.join(dir, f)) : [];
}

async function answers(repo: string): Promise<Result[][]> {
  const out: Result[][] = [];
  for (const q of QUERIES) out.push(await runJson<Result[]>(['search', q, '-k', '5'], repo));
  return out;
}

describe('packed columns', () => {
  test('strings round-trip whatever their characters, lengths kept item by item', () => {
    const items = ['', 'plain', 'naïve café', '数据库', 'emoji 🎉 here', 'lone \ud800 surrogate', 'tab\tand\nnewline'];
    const back = unpackStrings(packStrings(items));
    assert.equal(back.length, items.length);
    items.forEach((s, i) => assert.equal(back[i].length, s.length));
    assert.deepEqual(back.slice(0, 5), items.slice(0, 5));
    assert.equal(back[5], 'lone \ufffd surrogate');
    assert.equal(back[6], items[6]);
  });

  test('strings read one at a time from the packed column are the strings unpacked whole, in any order', () => {
    const items = ['', '\ufeffbom first', 'plain', 'naïve café', '数据库', 'emoji 🎉 here', 'lone \ud800 surrogate', ''];
    const packed = packStrings(items);
    const whole = unpackStrings(packed);
    const lazy = new LazyStrings(packed);
    assert.equal(lazy.count, items.length);
    for (const i of [5, 0, 7, 1, 6, 2, 4, 3]) assert.equal(lazy.at(i), whole[i], `item ${i}`);
  });

  test('a restored list table reads as it was written and grows like a fresh one', () => {
    const table = new ListTable(['int32', 'float32']);
    table.writable('alpha').forEach((list, c) => list.push(c === 0 ? 3 : 0.5));
    table.writable('beta')[0].push(7);
    table.writable('beta')[1].push(4);
    const packed = table.pack();
    const readOnly = ListTable.unpack(packed);
    assert.deepEqual(readOnly.get('beta')!.map((l) => [...l]), [[7], [4]]);
    assert.equal(readOnly.pack(), packed, 'read but not written: packs to what it was restored from, not anew');
    const restored = ListTable.unpack(packed);
    assert.deepEqual(restored.get('alpha')!.map((l) => [...l]), [[3], [0.5]]);
    assert.equal(restored.get('gamma'), undefined);
    const [docs, tfs] = restored.writable('alpha');
    docs.push(9);
    tfs.push(1);
    restored.writable('gamma')[0].push(1);
    restored.writable('gamma')[1].push(2);
    const again = ListTable.unpack(restored.pack());
    assert.deepEqual(again.get('alpha')!.map((l) => [...l]), [[3, 9], [0.5, 1]]);
    assert.deepEqual(again.get('beta')!.map((l) => [...l]), [[7], [4]]);
    assert.deepEqual(again.get('gamma')!.map((l) => [...l]), [[1], [2]]);
  });

  test('a packed table keeps its keys in order, found by bisection once restored; a table packed before, in any order, by a map', () => {
    // ｚ (U+FF5A) sorts after 🎉 (U+1F389) in UTF-16 units, as `<` compares, and before it in code points (UTF-8 bytes).
    const words = ['zeta', 'alpha', 'Beta', 'naïve', '数据', 'emoji🎉', '', 'alp', 'alpha2', '\uff5a', '🎉'];
    const table = new ListTable(['int32']);
    words.forEach((w, i) => table.writable(w)[0].push(i));
    const packed = table.pack();
    assert.equal(packed.inOrder, true);
    assert.deepEqual(unpackStrings(packed.keys), [...words].sort());
    const legacy = { ...packed, keys: packStrings(words), starts: Uint32Array.from([0, ...words.map((_, i) => i + 1)]), columns: [Int32Array.from(words.keys())], inOrder: undefined };
    for (const restored of [ListTable.unpack(packed), ListTable.unpack(legacy)]) {
      words.forEach((w, i) => assert.deepEqual([...restored.get(w)![0]], [i], w));
      for (const absent of ['alph', 'alpha3', 'zz', 'A', '数']) assert.equal(restored.get(absent), undefined, absent);
      assert.equal(restored.keysAsSaid(), true);
    }
    assert.notEqual(ListTable.unpack(legacy).pack(), legacy, 'a table restored out of order is packed anew, in order');
    assert.equal(ListTable.unpack(legacy).pack().inOrder, true);
  });

  test('a key that does not read back as written leaves a table unordered; keys said in order that are not are caught', () => {
    const table = new ListTable(['int32']);
    ['b', 'lone \ud800', 'a'].forEach((w, i) => table.writable(w)[0].push(i));
    const packed = table.pack();
    assert.equal(packed.inOrder, false);
    assert.deepEqual([...ListTable.unpack(packed).get('a')![0]], [2]);
    const claimed = { keys: packStrings(['b', 'a']), starts: Uint32Array.from([0, 1, 2]), columns: [Int32Array.from([0, 1])], inOrder: true };
    assert.equal(ListTable.unpack(claimed).keysAsSaid(), false);
    assert.equal(ListTable.unpack({ ...claimed, keys: packStrings(['a', 'a']) }).keysAsSaid(), false, 'a key twice');
  });
});

test('name words read back per file; runs that name no word are damage, never a misread', () => {
  const packed = packNameWords([new Map([['rout', 2], ['handl', 1]]), new Map(), new Map([['rout', 1]])]);
  const read = unpackNameWords(packed, 3)!;
  assert.deepEqual([...read(0)], [['rout', 2], ['handl', 1]]);
  assert.deepEqual([...read(1)], []);
  assert.deepEqual([...read(2)], [['rout', 1]]);
  assert.equal(unpackNameWords(packed, 4), null, 'another count of files');
  const bad = unpackNameWords({ ...packed, ids: Uint32Array.of(0, 1, 7) }, 3)!;
  assert.throws(() => bad(0), SectionDamageError);
});

test('blobs an index run found empty are kept in the order asked, whatever order it found them in', async () => {
  const dir = tempDir('held-empty');
  const keptOrder = async (found: string[]) => {
    const set = new ResidentChunks(8);
    set.snapshotFile = path.join(dir, `${found.join('')}.snap`);
    // Every blob is in hand: the store is never asked.
    await set.ensure({} as StoreHandle, ['c', 'a', 'b'], async () => ({ rows: [], empty: found }));
    const restored = readSnapshot(set.snapshotFile, 8)!;
    try {
      return [...restored.state.empty];
    } finally {
      restored.close();
    }
  };
  // As a set read from the store marks them: the same blobs write the same snapshot.
  assert.deepEqual(await keptOrder(['b', 'a', 'c']), ['c', 'a', 'b']);
  assert.deepEqual(await keptOrder(['a', 'b', 'c']), ['c', 'a', 'b']);
});

describe('the resident snapshot of a one-shot search', () => {
  let repo: string;
  let built: Result[][];

  before(async () => {
    repo = makeFixtureRepo();
    const r = await runCli(['index'], repo);
    assert.equal(r.code, 0, r.stderr);
    // The index run writes one (search-ready.test.ts); this suite is about the one a search writes.
    assert.equal(residentFiles(repo).length, 1, 'the index run wrote the snapshot');
    fs.rmSync(path.join(repo, '.ocrag', 'resident'), { recursive: true });
    built = await answers(repo);
  });

  test('a later process restores it and answers exactly as the set built from the store', async () => {
    const [file] = residentFiles(repo);
    assert.equal(residentFiles(repo).length, 1);
    const written = fs.statSync(file).mtimeMs;
    assert.deepEqual(await answers(repo), built);
    // A process that rebuilt the set from the store would have written the snapshot again.
    assert.equal(fs.statSync(file).mtimeMs, written, 'restored, not rebuilt');
    assert.equal(built[1][0].path, 'src/cli/args.ts', 'the symbol table survives the restore');
  });

  test('a search in this process restores it once (begun while git reads the tree) and reads nothing from the store', async () => {
    const restored = readSnapshot(residentFiles(repo)[0], 512)!;
    const count = restored.state.info.length;
    restored.close();
    const loads = await firstSearchLoads(repo);
    assert.equal(loads.fromSnapshot, count, 'the set restored early is the one searched: restored once');
    assert.equal(loads.fromStore, 0, 'no chunk was read back from the store');
  });

  test('a torn or foreign snapshot is ignored, answers stay the same, and it is written anew', async () => {
    const [file] = residentFiles(repo);
    const good = fs.readFileSync(file);
    fs.writeFileSync(file, good.subarray(0, good.length >> 1));
    assert.deepEqual(await answers(repo), built);
    fs.writeFileSync(file, 'not a snapshot');
    assert.deepEqual(await answers(repo), built);
    assert.ok(fs.statSync(file).size > 1000, 'rebuilt');
  });

  test('a snapshot of the layout before (no members, no name words kept) is never read: it is rebuilt', async () => {
    const [file] = residentFiles(repo);
    const good = fs.readFileSync(file);
    const older = Buffer.from(good);
    older.write('ocragRSA', 0, 'latin1');
    fs.writeFileSync(file, older);
    assert.equal(readSnapshot(file, 512), null);
    assert.deepEqual(await answers(repo), built);
    assert.ok(fs.readFileSync(file).subarray(0, 8).equals(good.subarray(0, 8)), 'written anew in this layout');
  });

  test('its words and names are kept in order, as its header says; one that does not say so is read through a map, answering the same', async () => {
    const [file] = residentFiles(repo);
    const restored = readSnapshot(file, 512)!;
    try {
      for (const table of [restored.state.postings.lists, restored.state.definitions]) assert.equal(table.pack(), table.pack(), 'in order: packs to what it was read from');
    } finally {
      restored.close();
    }
    const good = fs.readFileSync(file);
    const said = ',"sortedKeys":true';
    const at = good.indexOf(said);
    assert.ok(at > 16 && at < 16 + good.readUInt32LE(8), 'said in the header');
    const unsaid = Buffer.from(good);
    unsaid.write(' '.repeat(said.length), at, 'latin1');
    unsaid.writeUInt32LE(zlib.crc32(unsaid.subarray(16, 16 + unsaid.readUInt32LE(8))), 12);
    fs.writeFileSync(file, unsaid);
    const legacy = readSnapshot(file, 512)!;
    try {
      assert.notEqual(legacy.state.postings.lists.pack(), legacy.state.postings.lists.pack(), 'not said in order: packed anew');
    } finally {
      legacy.close();
    }
    assert.deepEqual(await answers(repo), built);
  });

  test('the members and name words it keeps are what the rows give', () => {
    const restored = readSnapshot(residentFiles(repo)[0], 512)!;
    try {
      const { info, byBlob, isMember, fileNames } = restored.state;
      let members = 0;
      for (const [blob, chunks] of byBlob) {
        const want = new Set(memberIndices(info, chunks));
        members += want.size;
        for (const i of chunks) assert.equal(isMember(i), want.has(i), `${info[i].symbol}`);
        assert.deepEqual(new Map([...fileNames(blob)].sort()), new Map([...nameWordsOf(info, chunks.filter((i) => !want.has(i)))].sort()));
      }
      assert.ok(members > 0, 'the fixture has members');
      assert.ok([...byBlob.keys()].some((b) => fileNames(b).size > 0));
    } finally {
      restored.close();
    }
  });

  test('after a restore, an uncommitted new function is added to the set, and the next process restores it too', async () => {
    const file = path.join(repo, 'src', 'util', 'zebra.ts');
    fs.writeFileSync(file, '/** Counts the stripes of a zebra crossing before the lights change. */\nexport function countZebraStripes(width: number): number {\n  return Math.floor(width / 0.5);\n}\n');
    const first = await runJson<Result[]>(['search', 'countZebraStripes', '-k', '1'], repo);
    assert.equal(first[0]?.path, 'src/util/zebra.ts');
    assert.equal(first[0]?.startLine, 1);
    const second = await runJson<Result[]>(['search', 'how many stripes does a zebra crossing have', '-k', '1'], repo);
    assert.equal(second[0]?.path, 'src/util/zebra.ts');
    fs.rmSync(file);
    assert.deepEqual(await answers(repo), built, 'reverting the edit restores the original answers');
  });

  test('an index run after a commit brings the snapshot up to date, so the next search has nothing to load', async () => {
    const dir = path.join(repo, '.ocrag', 'resident');
    const listing = () => fs.readdirSync(dir).map((f) => `${f}@${fs.statSync(path.join(dir, f)).mtimeMs}`).sort();
    const before = listing();
    fs.writeFileSync(path.join(repo, 'src', 'util', 'heron.ts'), '/** Counts the herons wading in a pond at dawn. */\nexport function countHerons(pond: string[]): number {\n  return pond.filter((bird) => bird === "heron").length;\n}\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'herons');
    const r = await runCli(['index'], repo);
    assert.equal(r.code, 0, r.stderr);
    const refreshed = listing();
    assert.notDeepEqual(refreshed, before, 'the index run added to the snapshot');
    const found = await runJson<Result[]>(['search', 'countHerons', '-k', '1'], repo);
    assert.equal(found[0]?.path, 'src/util/heron.ts');
    assert.deepEqual(listing(), refreshed, 'the search restored it whole: nothing missing, nothing written');
  });
});
