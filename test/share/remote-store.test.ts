import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openStore } from '../../src/store/open-store.js';
import { openRemote, readRemoteIdentity, remoteManifestKey, writeRemoteIdentity } from '../../src/store/remote.js';
import { answersOf, cloneRepo, git, makeFixtureRepo, runCli, runJson, storedChunks, tempDir } from '../helpers.js';
import { withIndex } from '../robustness/robustness-helpers.js';
import { filesUnder, startS3, type S3Server } from './s3-server.js';

interface IndexSummary {
  upToDate: boolean;
  newBlobs: number;
  chunksEmbedded: number;
  chunksTotal: number;
  remote?: { remote: string; blobs: number; chunks: number; marks: number; contents: number; searchSet: boolean };
}
interface PublishSummary {
  remote: string;
  commit: string;
  blobs: number;
  blobsAdded: number;
  chunksAdded: number;
  marksAdded: number;
  created: boolean;
  repository: string;
  manifestKey: string;
  searchSetBytes: number;
}

const QUERIES = ['parse command line arguments', 'retry a database query when it is locked', 'evict least recently used cache entry', 'LRUCache'];

/** Two more commits upstream: one edits a file, the other adds one. */
function twoCommitsLater(origin: string): void {
  fs.appendFileSync(path.join(origin, 'src/cli/args.ts'), '\nexport function countFlags(argv: string[]): number {\n  return argv.filter((a) => a.startsWith("--")).length;\n}\n');
  git(origin, 'commit', '-q', '-am', 'count flags');
  fs.writeFileSync(path.join(origin, 'src/added.ts'), 'export function doubled(x: number): number {\n  return x * 2;\n}\n');
  git(origin, 'add', 'src/added.ts');
  git(origin, 'commit', '-q', '-m', 'doubled');
}

describe('a team store on S3 (a real s3rver on 127.0.0.1)', () => {
  let s3: S3Server;
  let origin: string;
  let first: string;
  let env: Record<string, string>;
  let published: PublishSummary;
  let resultsA: unknown[];
  const outputs: string[] = [];
  const clones: string[] = [];
  const clone = (name: string) => {
    const dir = cloneRepo(origin, name);
    clones.push(dir);
    return dir;
  };
  const run = async (args: string[], cwd: string, extra: Record<string, string> = {}) => {
    const r = await runCli(args, cwd, { ...env, ...extra });
    outputs.push(r.stdout, r.stderr);
    return r;
  };
  const json = async <T>(args: string[], cwd: string, extra: Record<string, string> = {}): Promise<T> => {
    const r = await run([...args, '--json'], cwd, extra);
    assert.equal(r.code, 0, `ocrag ${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  };
  /** A local index (no remote) made in-process: what the tests compare with, not what they test. */
  const indexedHere = (dir: string) => withIndex(dir, (index) => index.index());
  /** A clone indexed locally at the published commit, then two commits later: one index of both commits. */
  let bothCommits: Promise<{ dir: string; second: IndexSummary }> | undefined;
  const indexOfBothCommits = () =>
    (bothCommits ??= (async () => {
      const dir = clone('local');
      git(dir, 'reset', '-q', '--hard', first);
      return withIndex(dir, async (index) => {
        await index.index();
        git(dir, 'reset', '-q', '--hard', 'origin/main');
        return { dir, second: (await index.index()) as IndexSummary };
      });
    })());

  before(async () => {
    s3 = await startS3();
    env = { ...s3.env, OCRAG_REMOTE: 's3://team/org/sample' };
    Object.assign(process.env, s3.env);
    origin = makeFixtureRepo();
    first = git(origin, 'rev-parse', 'HEAD');
    const a = clone('a');
    published = await json<PublishSummary>(['publish'], a);
    resultsA = await answersOf(a, QUERIES);
    twoCommitsLater(origin);
  });
  after(() => s3.stop());

  test('publish from clone A, index in clone B: nothing embedded, the same search results', async () => {
    assert.equal(published.created, true);
    assert.equal(published.commit, first);
    assert.ok(published.chunksAdded > 10, JSON.stringify(published));
    const b = clone('b');
    git(b, 'reset', '-q', '--hard', first);
    const indexed = await json<IndexSummary>(['index'], b);
    assert.equal(indexed.chunksEmbedded, 0);
    assert.equal(indexed.remote?.chunks, published.chunksAdded);
    // The published commit's search-ready set was placed: the first search restores it instead of building it.
    assert.ok(published.searchSetBytes > 0, JSON.stringify(published));
    assert.equal(indexed.remote?.searchSet, true, JSON.stringify(indexed));
    assert.equal(fs.readdirSync(path.join(b, '.ocrag', 'resident')).filter((f) => f.endsWith('.snap')).length, 1);
    assert.deepEqual(await answersOf(b, QUERIES), resultsA);
    // status names the remote (no credential), that it answers, and what this run copied.
    const status = await json<{ remote: { uri: string; reachable: boolean; published: boolean; lastRun: { chunks: number; searchSet: boolean; commit: string } } }>(['status'], b);
    assert.equal(status.remote.uri, env.OCRAG_REMOTE);
    assert.equal(status.remote.reachable, true);
    assert.equal(status.remote.published, true);
    assert.deepEqual([status.remote.lastRun.chunks, status.remote.lastRun.searchSet, status.remote.lastRun.commit], [published.chunksAdded, true, first]);
    const text = await run(['status'], b);
    assert.match(text.stdout, new RegExp(`remote +s3://team/org/sample reachable; last index run \\(${first.slice(0, 8)}, .*\\) copied ${published.chunksAdded} chunks`));
  });

  test('a file that yields no chunk is published as its mark: publishing again adds nothing', async () => {
    const extra = { OCRAG_REMOTE: env.OCRAG_REMOTE.replace('sample', 'marks') };
    const c = clone('empty-file');
    fs.writeFileSync(path.join(c, 'src', 'blank.ts'), '\n\n');
    git(c, 'add', 'src/blank.ts');
    git(c, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'a blank file');
    const once = await json<PublishSummary>(['publish'], c, extra);
    assert.ok(once.marksAdded >= 1, JSON.stringify(once));
    const again = await json<PublishSummary>(['publish'], c, extra);
    assert.deepEqual([again.blobs, again.blobsAdded, again.chunksAdded, again.marksAdded], [once.blobs, 0, 0, 0], JSON.stringify(again));
  });

  test('a search-ready set whose bytes do not match its record is not used; the first search builds its own', async () => {
    const remote = openRemote(env.OCRAG_REMOTE, { dir: tempDir('remote-tamper') });
    const record = JSON.parse((await remote.objects.get(`search/${first}.json`))!.toString('utf8')) as { sha256: string };
    const body = (await remote.objects.get(`search/${record.sha256}.snap`))!;
    const tampered = Buffer.from(body);
    tampered[tampered.length - 1] ^= 1;
    await remote.objects.put(`search/${record.sha256}.snap`, tampered);
    try {
      const c = clone('tampered-set');
      git(c, 'reset', '-q', '--hard', first);
      const indexed = await json<IndexSummary>(['index'], c);
      assert.equal(indexed.chunksEmbedded, 0);
      assert.equal(indexed.remote?.searchSet, false, JSON.stringify(indexed));
      assert.deepEqual(await answersOf(c, QUERIES), resultsA);
    } finally {
      await remote.objects.put(`search/${record.sha256}.snap`, body);
    }
  });

  test('manifests are kept per repository: two repositories sharing a prefix keep their own branch-main', async () => {
    const shared = { OCRAG_REMOTE: env.OCRAG_REMOTE.replace('sample', 'shared') };
    const remote = openRemote(shared.OCRAG_REMOTE, { dir: tempDir('remote-shared') });
    const one = clone('repo-one');
    git(one, 'reset', '-q', '--hard', first);
    const other = path.join(tempDir('repo-two'), 'two');
    fs.mkdirSync(path.join(other, 'src'), { recursive: true });
    git(other, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(other, 'src', 'only.ts'), 'export function onlyHere(): string {\n  return "two";\n}\n');
    git(other, 'add', '.');
    git(other, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'another repository');
    const [a, b] = [await json<PublishSummary>(['publish'], one, shared), await json<PublishSummary>(['publish'], other, shared)];
    const rootOf = (dir: string) => git(dir, 'rev-list', '--max-parents=0', 'HEAD');
    assert.deepEqual([a.repository, b.repository], [`root-${rootOf(one)}`, `root-${rootOf(other)}`]);
    assert.equal(a.manifestKey, 'branch-main');
    for (const [summary, dir] of [[a, one], [b, other]] as const) {
      const manifest = JSON.parse((await remote.objects.get(remoteManifestKey(summary.repository, 'branch-main')))!.toString('utf8')) as { commit: string };
      assert.equal(manifest.commit, git(dir, 'rev-parse', 'HEAD'));
    }
    // A configured name instead of the root commit; a shallow clone, which has no root, must be given one.
    const named = await json<PublishSummary>(['publish'], other, { ...shared, OCRAG_REMOTE_NAME: 'org/two' });
    assert.equal(named.repository, 'name-org%2Ftwo');
    assert.ok(await remote.objects.get('manifests/name-org%2Ftwo/branch-main.json'));
    const shallow = path.join(tempDir('shallow'), 'shallow');
    git(path.dirname(shallow), 'clone', '-q', '--depth', '1', `file://${origin}`, shallow);
    const refused = await run(['publish'], shallow, shared);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /a shallow clone cannot name its repository by its root commit: set OCRAG_REMOTE_NAME/);
    assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
    assert.equal((await run(['publish', '--json'], shallow, { ...shared, OCRAG_REMOTE_NAME: 'org/sample' })).code, 0);
  });

  test('a clone two commits ahead embeds only the chunks those commits made', async () => {
    // What the two commits cost an index that holds the published commit: the clone must embed exactly that.
    const expected = (await indexOfBothCommits()).second;
    assert.ok(expected.chunksEmbedded > 0);

    const b = clone('ahead');
    const indexed = await json<IndexSummary>(['index'], b);
    assert.equal(indexed.newBlobs, 2, JSON.stringify(indexed));
    assert.equal(indexed.chunksEmbedded, expected.chunksEmbedded, JSON.stringify(indexed));
    // The edited file's unchanged functions came from the remote's contents.
    assert.ok((indexed.remote?.contents ?? 0) > 0, JSON.stringify(indexed));
    const listed = await runJson<{ path: string; chunks: number }[]>(['list'], b);
    const changed = listed.filter((f) => ['src/cli/args.ts', 'src/added.ts'].includes(f.path)).reduce((n, f) => n + f.chunks, 0);
    assert.equal(indexed.chunksTotal, (indexed.remote?.chunks ?? 0) + changed);
  });

  test('two publishers at once leave a consistent store', async () => {
    const remote = openRemote(env.OCRAG_REMOTE.replace('sample', 'concurrent'), { dir: tempDir('remote-reader') });
    const extra = { OCRAG_REMOTE: env.OCRAG_REMOTE.replace('sample', 'concurrent') };
    const [old, now] = [clone('pub-old'), clone('pub-new')];
    git(old, 'reset', '-q', '--hard', first);
    await indexedHere(old);
    await indexedHere(now);
    // Two processes, started together, each appending its commit's chunks.
    const both = await Promise.all([run(['publish', '--json'], old, extra), run(['publish', '--json'], now, extra)]);
    for (const r of both) assert.equal(r.code, 0, r.stderr);
    const summaries = both.map((r) => JSON.parse(r.stdout) as PublishSummary);
    assert.equal(summaries.filter((s) => s.created).length, 1, 'one of them created the store');

    // The remote holds exactly what one index of both commits holds: every chunk once, every content once.
    const union = (await indexOfBothCommits()).dir;
    const identity = await readRemoteIdentity(remote);
    const [remoteStore, unionStore] = [await openStore(remote.location, identity!.dim, { create: false }), await openStore({ tables: path.join(union, '.ocrag', 'lance'), writeLock: path.join(union, '.ocrag', 'write.lock'), searchIndexes: path.join(union, '.ocrag', 'search-indexes.json') }, identity!.dim, { create: false })];
    try {
      const ids = (await storedChunks(remoteStore)).map((c) => c.id);
      assert.equal(new Set(ids).size, ids.length, 'no chunk stored twice');
      assert.deepEqual(new Set(ids), new Set((await storedChunks(unionStore)).map((c) => c.id)));
      assert.equal(await remoteStore.countContents(), await unionStore.countContents(), 'no content stored twice');
    } finally {
      remoteStore.close();
      unionStore.close();
    }
    // And a fresh clone at either commit finds everything there.
    const fresh = clone('fresh');
    assert.equal((await json<IndexSummary>(['index'], fresh, extra)).chunksEmbedded, 0);
  });

  test('remote down: the index is built locally, one line says so, exit 0', async () => {
    const c = clone('offline');
    // Nothing listens on the port of a server stopped before.
    const gone = await startS3();
    await gone.stop();
    const r = await run(['index', '--json'], c, { ...gone.env, OCRAG_REMOTE: env.OCRAG_REMOTE });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.split('\n').filter((l) => /remote store .* not usable .*indexing locally/.test(l)).length, 1, r.stderr);
    assert.ok((JSON.parse(r.stdout) as IndexSummary).chunksEmbedded > 0);
    const status = await run(['status', '--json'], c, { ...gone.env, OCRAG_REMOTE: env.OCRAG_REMOTE });
    assert.equal(status.code, 0, status.stderr);
    const remote = (JSON.parse(status.stdout) as { remote: { uri: string; reachable: boolean; problem: string; lastRun: unknown } }).remote;
    assert.deepEqual([remote.uri, remote.reachable, remote.lastRun], [env.OCRAG_REMOTE, false, null]);
    assert.match(remote.problem, /unreachable/);
  });

  test('a remote of another model is refused; the local index stays as it was', async () => {
    const foreign = { OCRAG_REMOTE: env.OCRAG_REMOTE.replace('sample', 'foreign') };
    const remote = openRemote(foreign.OCRAG_REMOTE, { dir: tempDir('remote-writer') });
    const theirs = await readRemoteIdentity(openRemote(env.OCRAG_REMOTE, { dir: tempDir('remote-reader') }));
    await writeRemoteIdentity(remote, { ...theirs!, modelId: 'someone/else-model' });
    const c = clone('refuse');
    git(c, 'reset', '-q', '--hard', first);
    await indexedHere(c);
    const snapshot = () => filesUnder(path.join(c, '.ocrag')).filter((f) => !f.endsWith('.lock') && !f.endsWith('log')).map((f) => [path.relative(c, f), fs.readFileSync(f).toString('base64')]);
    const before = snapshot();
    git(c, 'reset', '-q', '--hard', 'origin/main');
    const r = await run(['index'], c, foreign);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /remote store s3:\/\/team\/org\/foreign holds model someone\/else-model .*refused/);
    assert.deepEqual(snapshot(), before);
    const publish = await run(['publish'], c, foreign);
    assert.equal(publish.code, 4, publish.stderr);
  });

  test('a wrong key is one line with the status, no credential; credentials are written nowhere', async () => {
    const c = clone('badkey');
    // s3rver checks the key id (its SigV4 check is unimplemented; test/store/sigv4.test.ts checks the signature).
    const r = await run(['publish'], c, { AWS_ACCESS_KEY_ID: 'NOT-A-KEY-4711', AWS_SECRET_ACCESS_KEY: 'not-the-secret-4711' });
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, /HTTP 403 InvalidAccessKeyId/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.doesNotMatch(r.stderr + r.stdout, /not-the-secret-4711|NOT-A-KEY-4711|S3RVER/);
    const none = await run(['publish'], c, { OCRAG_REMOTE: '' });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no remote store configured: set OCRAG_REMOTE/);
    const other = await run(['publish'], c, { OCRAG_REMOTE: 'gs://bucket/x' });
    assert.equal(other.code, 2);
    assert.match(other.stderr, /remote "gs:\/\/bucket\/x" is not supported: expected s3:\/\/bucket\/prefix/);
    for (const text of outputs) assert.doesNotMatch(text, /S3RVER|not-the-secret-4711/);
    assert.ok(clones.length >= 2);
    for (const file of clones.flatMap((c) => filesUnder(path.join(c, '.ocrag')))) assert.ok(!fs.readFileSync(file).includes('S3RVER'), `${file} holds a credential`);
  });
});
