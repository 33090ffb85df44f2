import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { CodeIndex } from '../../src/service/code-index.js';
import { importArtifact } from '../../src/share/import.js';
import { storeLocation } from '../../src/store/layout.js';
import { openStore } from '../../src/store/open-store.js';
import { answersOf, cloneRepo, git, makeFixtureRepo, runCli, runJson, tempDir, TEST_CACHE } from '../helpers.js';

// The in-process import below loads the model from the test cache, as the CLI runs do.
process.env.OCRAG_CACHE ??= TEST_CACHE;

interface Summary {
  upToDate: boolean;
  newBlobs: number;
  chunksEmbedded: number;
}
interface ExportSummary {
  file: string;
  commit: string;
  counts: { files: number; blobs: number; chunks: number; marks: number; entries: number };
  sha256: string;
}
interface ImportSummary {
  manifestKey: string;
  manifestWritten: boolean;
  repository: string;
  chunks: number;
  chunksAdded: number;
  marksAdded: number;
}
interface Status {
  chunksStored: number;
  manifests: { key: string; commit: string }[];
}

const QUERIES = ['parse command line arguments', 'retry a database query when it is locked', 'evict least recently used cache entry', 'LRUCache'];

const searches = (repo: string) => answersOf(repo, QUERIES);
const clone = cloneRepo;

describe('team index sharing: export in one clone, import in another', () => {
  let origin: string;
  let a: string;
  let firstCommit: string;
  let artifact: string;
  let exported: ExportSummary;
  let resultsA: unknown[];
  const changed = ['src/cli/args.ts', 'server/db.py', 'src/added.ts'];

  before(async () => {
    origin = makeFixtureRepo();
    firstCommit = git(origin, 'rev-parse', 'HEAD');
    a = clone(origin, 'a');
    await runJson(['index'], a);
    resultsA = await searches(a);
    artifact = path.join(tempDir('artifact'), 'index.tar');
    exported = await runJson<ExportSummary>(['export', '--out', artifact], a);
    // Three files later, upstream.
    fs.appendFileSync(path.join(origin, changed[0]), '\nexport function countFlags(argv: string[]): number {\n  return argv.filter((a) => a.startsWith("--")).length;\n}\n');
    fs.appendFileSync(path.join(origin, changed[1]), '\n\ndef close_quietly(conn):\n    """Closes a connection and ignores errors."""\n    try:\n        conn.close()\n    except Exception:\n        pass\n');
    fs.writeFileSync(path.join(origin, changed[2]), 'export function added(x: number): number {\n  return x * 2;\n}\n');
    git(origin, 'add', '-A');
    git(origin, 'commit', '-q', '-m', 'three files later');
  });

  test('export writes a verifiable artifact of the indexed commit', async () => {
    assert.equal(exported.commit, firstCommit);
    assert.ok(exported.counts.chunks > 10 && exported.counts.files > 10, JSON.stringify(exported.counts));
    const check = await runJson<{ verified: boolean; header: { commit: string; modelId: string; dim: number; chunkerVersion: string }; counts: ExportSummary['counts']; sha256: string }>(['export', '--check', artifact], a);
    assert.equal(check.verified, true);
    assert.equal(check.header.commit, firstCommit);
    assert.deepEqual(check.counts, exported.counts);
    assert.equal(check.sha256, exported.sha256);
    const human = await runCli(['export', '--check', artifact], a);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /verified/);
    assert.match(human.stdout, new RegExp(`commit +${firstCommit}`));
  });

  test('a fresh clone imports it: same results, nothing embedded, importing twice changes nothing', async () => {
    const b = clone(origin, 'b');
    git(b, 'reset', '-q', '--hard', firstCommit);
    const imported = await runJson<ImportSummary>(['import', artifact], b);
    assert.equal(imported.manifestKey, 'branch-main');
    assert.equal(imported.repository, 'checked');
    assert.equal(imported.chunksAdded, exported.counts.chunks);
    // The store was staged beside the index and moved into place: nothing of the staging is left.
    assert.deepEqual(fs.readdirSync(path.join(b, '.ocrag')).filter((n) => n.startsWith('staging-')), []);
    const index = await runJson<Summary>(['index'], b);
    assert.ok(index.upToDate || index.chunksEmbedded === 0, JSON.stringify(index));
    assert.equal(index.chunksEmbedded, 0);
    assert.deepEqual(await searches(b), resultsA);

    const before = await runJson<Status>(['status'], b);
    const again = await runJson<ImportSummary>(['import', artifact], b);
    assert.deepEqual([again.chunksAdded, again.marksAdded, again.manifestWritten], [0, 0, false]);
    assert.equal((await runJson<Status>(['status'], b)).chunksStored, before.chunksStored);

    // Three files later only their blobs are read, and of their chunks only the contents not stored yet embedded.
    git(b, 'merge', '-q', '--ff-only', 'origin/main');
    const later = await runJson<Summary>(['index'], b);
    assert.equal(later.newBlobs, changed.length);
    const listed = await runJson<{ path: string; chunks: number }[]>(['list'], b);
    const chunksOfChanged = listed.filter((f) => changed.includes(f.path)).reduce((n, f) => n + f.chunks, 0);
    assert.ok(later.chunksEmbedded > 0 && later.chunksEmbedded <= chunksOfChanged, `${later.chunksEmbedded} of ${chunksOfChanged}`);

    // The commit B indexed over is no longer indexed in B: exporting it says so.
    const missing = await runCli(['export', '--rev', firstCommit, '--out', path.join(path.dirname(artifact), 'missing.tar')], b);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /was never indexed/);
  });

  test('an artifact of another commit still helps: only the differences are embedded', async () => {
    const d = clone(origin, 'd');
    const imported = await runJson<ImportSummary>(['import', artifact], d);
    assert.equal(imported.manifestKey, `detached-${firstCommit}`);
    const index = await runJson<Summary>(['index'], d);
    assert.equal(index.newBlobs, changed.length);
    // The imported commit can be passed on as it came.
    const reexported = await runJson<ExportSummary>(['export', '--rev', firstCommit, '--out', path.join(path.dirname(artifact), 're.tar')], d);
    const { files, blobs, chunks, marks } = reexported.counts;
    assert.deepEqual({ files, blobs, chunks, marks }, { files: exported.counts.files, blobs: exported.counts.blobs, chunks: exported.counts.chunks, marks: exported.counts.marks });
  });

  test('into an index with chunks already, only the missing chunks are added, also when the artifact is read twice', async () => {
    const f = clone(origin, 'f');
    await runJson(['index'], f);
    const before = (await runJson<Status>(['status'], f)).chunksStored;
    const index = await CodeIndex.open(f);
    let imported;
    try {
      imported = await importArtifact(index, artifact, { keepChunkBytes: 0 });
    } finally {
      await index.close();
    }
    // The clone is at the later commit: only the old versions of the two edited files are new to it.
    assert.ok(imported.chunksAdded > 0 && imported.chunksAdded < exported.counts.chunks, JSON.stringify(imported));
    assert.equal((await runJson<Status>(['status'], f)).chunksStored, before + imported.chunksAdded);
    git(f, 'reset', '-q', '--hard', firstCommit);
    assert.equal((await runJson<Summary>(['index'], f)).chunksEmbedded, 0);
    assert.deepEqual(await searches(f), resultsA);
  });

  test('an imported store answers full-text queries too: their index is built on first use', async () => {
    const g = clone(origin, 'g');
    await runJson(['import', artifact], g);
    const meta = JSON.parse(fs.readFileSync(path.join(g, '.ocrag', 'store.json'), 'utf8')) as { dim: number };
    const store = await openStore(storeLocation(path.join(g, '.ocrag')), meta.dim);
    try {
      const rows = await store.lexical('LRUCache evict', 3);
      assert.ok(rows.length > 0);
    } finally {
      store.close();
    }
  });

  test('export indexes HEAD first when it is not indexed yet', async () => {
    const e = clone(origin, 'e');
    const r = await runJson<ExportSummary>(['export', '--out', path.join(path.dirname(artifact), 'head.tar')], e);
    assert.equal(r.commit, git(e, 'rev-parse', 'HEAD'));
    assert.ok(r.counts.chunks > exported.counts.chunks);
    const bad = await runCli(['export', '--check', artifact, '--rev', 'HEAD'], e);
    assert.equal(bad.code, 2);
  });
});
