// A snapshot's segments (one per commit's index run) are searched through their own postings, taken as written:
// the answers are byte for byte those of the same tree searched from a merged snapshot and from no snapshot at
// all, and a segment written without its postings (an earlier build's) still answers the same. Real git commits,
// real LanceDB and the built model.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { ListTable } from '../../src/search/postings.js';
import { ResidentChunks } from '../../src/search/resident.js';
import { snapshotBlobs } from '../../src/search/resident-snapshot.js';
import { MAX_SEGMENTS, readSegments, writeSegment } from '../../src/search/resident-segments.js';
import { SectionedFile, writeSectionedFile, type Section } from '../../src/search/sectioned-file.js';
import { SEGMENT_INDEX_SECTIONS } from '../../src/search/segment-index.js';
import { git, makeFixtureRepo, runCli } from '../helpers.js';

// Words the fixture's files hold too, so segment rows and snapshot rows share postings.
const QUERIES = ['parse command line arguments', 'parseArgs', 'retry a request with backoff', 'connect to the database', 'count herons', 'retryWithJitter'];
const COMMITS: [string, string][] = [
  ['src/util/heron.ts', '/** Counts the herons wading in a pond at dawn. */\nexport function countHerons(pond: string[]): number {\n  return pond.filter((bird) => bird === "heron").length;\n}\n'],
  ['src/util/jitter.ts', '/** Retry a request with backoff and jitter, as parseArgs reads the retry count. */\nexport async function retryWithJitter<T>(request: () => Promise<T>, retries = 3): Promise<T> {\n  for (let attempt = 0; ; attempt++) {\n    try {\n      return await request();\n    } catch (e) {\n      if (attempt >= retries) throw e;\n    }\n  }\n}\n'],
  ['src/util/heron.ts', '/** Counts the herons and the egrets wading in a pond: parse the pond, then count. */\nexport function countHerons(pond: string[]): number {\n  return pond.filter((bird) => bird === "heron" || bird === "egret").length;\n}\n'],
];

const residentDir = (repo: string) => path.join(repo, '.ocrag', 'resident');
const filesOf = (repo: string, ext: string) => fs.readdirSync(residentDir(repo)).filter((f) => f.endsWith(ext)).map((f) => path.join(residentDir(repo), f));

/** Each query's `--json` answer as printed: bytes, not parsed. */
async function answers(repo: string): Promise<string[]> {
  const out: string[] = [];
  for (const q of QUERIES) {
    const r = await runCli(['search', q, '-k', '8', '--json', '--no-update'], repo);
    assert.equal(r.code, 0, r.stderr);
    out.push(r.stdout);
  }
  return out;
}

/** Answers with the resident folder as `arrange` leaves a copy of it; the folder as it was afterwards. */
async function answersWith(repo: string, arrange: (dir: string) => void | Promise<void>): Promise<string[]> {
  const aside = `${residentDir(repo)}.aside`;
  fs.cpSync(residentDir(repo), aside, { recursive: true });
  try {
    await arrange(residentDir(repo));
    return await answers(repo);
  } finally {
    fs.rmSync(residentDir(repo), { recursive: true, force: true });
    fs.renameSync(aside, residentDir(repo));
  }
}

describe("a snapshot's segments", () => {
  let repo: string;
  let withSegments: string[];

  before(async () => {
    repo = makeFixtureRepo();
    assert.equal((await runCli(['index'], repo)).code, 0);
    for (const [rel, text] of COMMITS) {
      fs.writeFileSync(path.join(repo, rel), text);
      git(repo, 'add', rel);
      git(repo, 'commit', '-qm', `change ${rel}`);
      assert.equal((await runCli(['index'], repo)).code, 0);
    }
    assert.equal(filesOf(repo, '.seg').length, COMMITS.length, 'one segment per commit');
    withSegments = await answers(repo);
  });

  test('are written with their index and taken in without indexing a word of their rows', () => {
    const [snapshot] = filesOf(repo, '.snap');
    const segments = readSegments(snapshot, snapshotBlobs(snapshot, 512)!.id!, 512);
    assert.ok(Array.isArray(segments) && segments.length === COMMITS.length && segments.every((s) => s.indexed), 'each segment read with its index');
    const set = new RowCountingChunks(512);
    set.snapshotFile = snapshot;
    set.restoreSnapshot();
    assert.ok(set.size > 0);
    assert.equal(set.rowsIndexed, 0, "no segment row's words indexed again");
  });

  test('answer as the same tree from no snapshot at all', async () => {
    assert.ok(withSegments[5].includes('src/util/jitter.ts') && withSegments[4].includes('src/util/heron.ts'));
    assert.deepEqual(await answersWith(repo, (dir) => fs.rmSync(dir, { recursive: true })), withSegments);
  });

  test('answer as the same tree from the snapshot with them merged in', async () => {
    const merged = await answersWith(repo, async () => {
      const [snapshot] = filesOf(repo, '.snap');
      const { id } = snapshotBlobs(snapshot, 512)!;
      // Segments that add nothing fill the limit, so the set is written whole with the commits' inside.
      for (let seq = COMMITS.length + 1; seq <= MAX_SEGMENTS; seq++) writeSegment(snapshot, id!, seq, 512, { rows: [], empty: [] });
      const set = new ResidentChunks(512);
      set.snapshotFile = snapshot;
      await set.compactSegments();
      assert.deepEqual(filesOf(repo, '.seg'), [], 'merged');
    });
    assert.deepEqual(merged, withSegments);
  });

  test('written without their postings (an earlier build), answer the same', async () => {
    const older = await answersWith(repo, () => {
      for (const file of filesOf(repo, '.seg')) {
        const opened = SectionedFile.open<object>(file, 'ocragRSG', [], { optional: [...ROW_SECTIONS, ...SEGMENT_INDEX_SECTIONS] })!;
        const sections: Record<string, Section> = Object.fromEntries(ROW_SECTIONS.map((name) => [name, opened.section(name).slice()]));
        const { sortedKeys: _, ...meta } = opened.meta as { sortedKeys?: true };
        opened.close();
        writeSectionedFile(file, 'ocragRSG', meta, sections, {});
        assert.equal(SEGMENT_INDEX_SECTIONS.some((name) => SectionedFile.open(file, 'ocragRSG', [], { optional: [name] })?.has(name)), false);
      }
      // Read as segments without an index, not as damaged ones (whose snapshot would go, to be built again).
      const [snapshot] = filesOf(repo, '.snap');
      const segments = readSegments(snapshot, snapshotBlobs(snapshot, 512)!.id!, 512);
      assert.ok(Array.isArray(segments) && segments.length === COMMITS.length && segments.every((s) => s.indexed === undefined));
    });
    assert.deepEqual(older, withSegments);
  });
});

/** A set that counts the rows whose words it indexes itself. */
class RowCountingChunks extends ResidentChunks {
  rowsIndexed = 0;
  protected override addRow(...args: Parameters<ResidentChunks['addRow']>): void {
    this.rowsIndexed++;
    super.addRow(...args);
  }
}

/** A segment's sections before it held its postings. */
const ROW_SECTIONS = [
  'ids.utf8', 'ids.ends', 'blobs.utf8', 'blobs.ends', 'languages.utf8', 'languages.ends', 'symbols.utf8', 'symbols.ends',
  'texts.utf8', 'texts.ends', 'terms.utf8', 'terms.ends', 'starts', 'ends', 'vectors', 'scales', 'empty.utf8', 'empty.ends',
];

describe('a list table with lists appended', () => {
  const packed = (entries: [string, number[], number[]][]) => {
    const table = new ListTable(['int32', 'float32']);
    for (const [key, docs, tfs] of entries) {
      const [d, t] = table.writable(key);
      d.push(...docs);
      t.push(...tfs);
    }
    return table.pack();
  };

  const plain = (lists: ReturnType<ListTable['pack']>) => ({ keys: [...lists.keys.ends], utf8: [...lists.keys.utf8], starts: [...lists.starts], columns: lists.columns.map((c) => [...c]) });

  test('reads each key as one list in order, keeps views where one part holds it, and packs as a table built whole', () => {
    const table = ListTable.unpack(packed([['alpha', [0, 2], [1, 2]], ['beta', [1], [0.5]]]));
    const viewed = table.get('beta');
    assert.deepEqual(table.get('alpha')!.map((l) => [...l]), [[0, 2], [1, 2]], 'a view read before the part comes');
    table.append(packed([['alpha', [0], [4]], ['gamma', [1], [1]]]), 3);
    assert.deepEqual(table.get('alpha')!.map((l) => [...l]), [[0, 2, 3], [1, 2, 4]]);
    assert.equal(table.get('beta'), viewed, 'a key the part lacks is read as before');
    assert.deepEqual(table.get('gamma')!.map((l) => [...l]), [[4], [1]]);
    const [docs, tfs] = table.writable('alpha');
    docs.push(9);
    tfs.push(8);
    table.append(packed([['alpha', [0], [0.5]]]), 10);
    assert.deepEqual(table.get('alpha')!.map((l) => [...l]), [[0, 2, 3, 9, 10], [1, 2, 4, 8, 0.5]], 'a list made writable takes the part at its end');
    const whole = packed([['alpha', [0, 2, 3, 9, 10], [1, 2, 4, 8, 0.5]], ['beta', [1], [0.5]], ['gamma', [4], [1]]]);
    assert.deepEqual(plain(table.pack()), plain(whole));
  });
});
