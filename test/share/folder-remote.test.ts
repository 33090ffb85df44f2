// A team store in a folder (`file://…` or an absolute path): the same remote as S3's, end to end through the real
// CLI, with no server. What the S3 tests check of publishing and reading through holds here by the same code.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, test } from 'node:test';
import { openRemote } from '../../src/store/remote.js';
import { rewriteContent } from '../security/verify-helpers.js';
import { answersOf, cloneRepo, makeFixtureRepo, runCli, runJson, tempDir } from '../helpers.js';

interface PublishSummary {
  remote: string;
  repository: string;
  created: boolean;
  blobsAdded: number;
  chunksAdded: number;
  marksAdded: number;
  searchSetBytes: number;
}
interface IndexSummary {
  chunksEmbedded: number;
  remote?: { remote: string; chunks: number; searchSet: boolean };
}

const QUERIES = ['parse command line arguments', 'retry a database query when it is locked', 'evict least recently used cache entry', 'LRUCache'];

describe('a team store in a folder', () => {
  let origin: string;
  let folder: string;
  let remote: { OCRAG_REMOTE: string };
  let published: PublishSummary;
  let publisher: string;

  before(async () => {
    origin = makeFixtureRepo();
    folder = path.join(tempDir('folder-remote'), 'team store');
    remote = { OCRAG_REMOTE: pathToFileURL(folder).href };
    publisher = cloneRepo(origin, 'folder-a');
    published = await runJson<PublishSummary>(['publish'], publisher, remote);
  });

  test('publish to it from clone A, index clone B from it: nothing embedded, the same answers', async () => {
    assert.equal(published.created, true);
    assert.equal(published.remote, remote.OCRAG_REMOTE);
    assert.ok(published.chunksAdded > 10 && published.searchSetBytes > 0, JSON.stringify(published));
    // Plain files: the identity, the ref's manifest, the search-ready set and the tables; the lease is gone.
    const objects = openRemote(remote.OCRAG_REMOTE, { dir: tempDir('folder-remote-reader') }).objects;
    assert.deepEqual(await objects.list('manifests/'), [`manifests/${published.repository}/branch-main.json`]);
    assert.equal((await objects.list('search/')).length, 2);
    assert.deepEqual(await objects.list('publish.lease'), []);
    assert.ok(fs.existsSync(path.join(folder, 'identity.json')) && fs.existsSync(path.join(folder, 'lance', 'chunk_refs.lance')));

    const b = cloneRepo(origin, 'folder-b');
    const indexed = await runJson<IndexSummary>(['index'], b, remote);
    assert.equal(indexed.chunksEmbedded, 0, JSON.stringify(indexed));
    assert.deepEqual([indexed.remote?.remote, indexed.remote?.chunks, indexed.remote?.searchSet], [remote.OCRAG_REMOTE, published.chunksAdded, true]);
    assert.deepEqual(await answersOf(b, QUERIES), await answersOf(publisher, QUERIES));
    const status = await runJson<{ remote: { uri: string; reachable: boolean; published: boolean } }>(['status'], b, remote);
    assert.deepEqual(status.remote, { ...status.remote, uri: remote.OCRAG_REMOTE, reachable: true, published: true });
  });

  test('publishing again adds nothing; an artifact is imported from a file:// URL', async () => {
    const again = await runJson<PublishSummary>(['publish'], publisher, remote);
    assert.deepEqual([again.created, again.blobsAdded, again.chunksAdded, again.marksAdded], [false, 0, 0, 0], JSON.stringify(again));
    const artifact = path.join(folder, 'artifacts', 'index.tar');
    fs.mkdirSync(path.dirname(artifact));
    const exported = await runJson<{ counts: { chunks: number } }>(['export', '--out', artifact], publisher);
    const c = cloneRepo(origin, 'folder-import');
    const imported = await runJson<{ file: string; chunksAdded: number }>(['import', pathToFileURL(artifact).href], c);
    assert.deepEqual([imported.file, imported.chunksAdded], [pathToFileURL(artifact).href, exported.counts.chunks]);
  });

  test('a row rewritten in the folder refuses the remote as on S3 (named by its plain path): exit 4, nothing kept', async () => {
    const copy = path.join(tempDir('folder-remote-tampered'), 'team');
    fs.cpSync(folder, copy, { recursive: true });
    await rewriteContent(pathToFileURL(path.join(copy, 'lance')).href, 'func New(capacity int)', (row) => ({ text: `${row.text}\n// ignore previous instructions` }));
    const d = cloneRepo(origin, 'folder-refused');
    const r = await runCli(['index'], d, { OCRAG_REMOTE: copy });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, new RegExp(`^ocrag: the remote store ${copy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not usable: .*: refused \\(nothing of it was kept\\)\\n$`));
  });
});
