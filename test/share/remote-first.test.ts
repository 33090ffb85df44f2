import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openRemote } from '../../src/store/remote.js';
import { answersOf, cloneRepo, git, makeFixtureRepo, runCli, tempDir } from '../helpers.js';
import { call, search as searchCode, startServer, until } from '../mcp/mcp-helpers.js';
import { startS3, type S3Server } from './s3-server.js';

const QUERIES = ['parse command line arguments', 'retry a database query when it is locked', 'evict least recently used cache entry', 'LRUCache'];
const ANSWERED = /answered from the team's index of ([0-9a-f]{8})/;

/** Until the clone's background run has written its manifest and let go of the lock (a minute at most). */
async function backgroundIndexDone(dir: string): Promise<void> {
  const index = path.join(dir, '.ocrag');
  for (let waited = 0; waited < 60_000; waited += 100) {
    const manifests = fs.existsSync(path.join(index, 'manifests')) ? fs.readdirSync(path.join(index, 'manifests')).filter((f) => f.endsWith('.json')) : [];
    if (manifests.length && !fs.existsSync(path.join(index, 'index.lock')) && !fs.existsSync(path.join(index, 'index.pending'))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no index of ${dir} after a minute: ${fs.existsSync(path.join(index, 'log')) ? fs.readFileSync(path.join(index, 'log'), 'utf8') : 'no log'}`);
}

describe("a fresh clone's first search answers from the team's published set (a real s3rver on 127.0.0.1)", () => {
  let s3: S3Server;
  let origin: string;
  let first: string;
  let env: Record<string, string>;
  let resultsA: unknown[];
  let chunksA: number;

  const search = async (dir: string, query: string, extra: Record<string, string> = {}) => {
    const r = await runCli(['search', query, '-k', '5', '--json'], dir, { ...env, ...extra });
    assert.equal(r.code, 0, r.stderr);
    return { results: JSON.parse(r.stdout) as unknown, stderr: r.stderr };
  };

  before(async () => {
    s3 = await startS3();
    env = { ...s3.env, OCRAG_REMOTE: 's3://team/org/first' };
    // For the remote opened in this process (to tamper with it).
    Object.assign(process.env, s3.env);
    origin = makeFixtureRepo();
    first = git(origin, 'rev-parse', 'HEAD');
    const a = cloneRepo(origin, 'a');
    const published = await runCli(['publish', '--json'], a, env);
    assert.equal(published.code, 0, published.stderr);
    chunksA = (JSON.parse(published.stdout) as { chunksAdded: number }).chunksAdded;
    resultsA = await answersOf(a, QUERIES);
  });
  after(() => s3.stop());

  test('answers at once with the same results, copies the index behind it, and then searches it', async () => {
    const b = cloneRepo(origin, 'b');
    const firstAnswer = await search(b, QUERIES[0]);
    assert.match(firstAnswer.stderr, ANSWERED);
    assert.equal(ANSWERED.exec(firstAnswer.stderr)![1], first.slice(0, 8));
    assert.deepEqual(firstAnswer.results, resultsA[0]);
    // .ocrag/ holds only the set (and the run's own files): the clone shows no untracked file.
    assert.equal(git(b, 'status', '--porcelain'), '');
    await backgroundIndexDone(b);
    const log = fs.readFileSync(path.join(b, '.ocrag', 'log'), 'utf8');
    assert.match(log, /remote-first: indexed main@[0-9a-f]{8}: \d+ files, \d+ new blobs, 0 chunks embedded/);
    // The set has served its turn: searches go through the index now, and say nothing more.
    assert.equal(fs.existsSync(path.join(b, '.ocrag', 'remote-first')), false);
    const status = JSON.parse((await runCli(['status', '--json'], b, env)).stdout) as { chunks: number };
    assert.equal(status.chunks, chunksA);
    for (const [i, q] of QUERIES.entries()) {
      const later = await search(b, q);
      assert.doesNotMatch(later.stderr, ANSWERED);
      assert.deepEqual(later.results, resultsA[i]);
    }
  });

  test('the remote named in .ocrag/config.json (docs/ci.md), written by hand before the first search, answers the same', async () => {
    const c = cloneRepo(origin, 'config-named');
    fs.mkdirSync(path.join(c, '.ocrag'));
    fs.writeFileSync(path.join(c, '.ocrag', 'config.json'), JSON.stringify({ remote: env.OCRAG_REMOTE }));
    // git status shows .ocrag/config.json until ocrag puts .ocrag/ in the clone's exclude file: it is no edit.
    const r = await runCli(['search', QUERIES[0], '-k', '5', '--json'], c, s3.env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, ANSWERED);
    assert.deepEqual(JSON.parse(r.stdout), resultsA[0]);
    await backgroundIndexDone(c);
  });

  test('two first searches at once both answer from the set', async () => {
    const t = cloneRepo(origin, 'two-at-once');
    const both = await Promise.all([search(t, QUERIES[1]), search(t, QUERIES[1])]);
    for (const answer of both) {
      assert.match(answer.stderr, ANSWERED);
      assert.deepEqual(answer.results, resultsA[1]);
    }
    await backgroundIndexDone(t);
    assert.deepEqual((await search(t, QUERIES[1])).results, resultsA[1]);
  });

  test("an agent's first search_code in a fresh clone answers from the set while the server's task copies the index", async () => {
    const m = cloneRepo(origin, 'mcp');
    const client = await startServer(m, [], env);
    try {
      const r = await call(client, 'search_code', { query: QUERIES[3], k: 5 });
      assert.ok(!r.isError, JSON.stringify(r.content));
      const first = r.structuredContent as { results: { path: string }[]; notice?: string };
      assert.match(first.notice ?? '', /answered from the team's published index of [0-9a-f]{8}; this clone's own index is being copied \(task [0-9a-f]{12}\)/);
      assert.deepEqual(first.results.map((x) => x.path), (resultsA[3] as { path: string }[]).map((x) => x.path));
      const done = await until('the copy task', async () => {
        const s = (await call(client, 'index_status')).structuredContent as { task?: { state: string; chunks: number } };
        return s.task?.state === 'done' ? s.task : null;
      });
      assert.equal(done.state, 'done');
      // Through the index now: the same answer, and no notice of a first answer.
      const later = await call(client, 'search_code', { query: QUERIES[3], k: 5 });
      assert.doesNotMatch((later.structuredContent as { notice?: string }).notice ?? '', /answered from the team/);
      assert.deepEqual((await searchCode(client, QUERIES[3], { k: 5 })).map((x) => x.path), first.results.map((x) => x.path));
    } finally {
      await client.close();
    }
  });

  test('a clone with uncommitted edits, or asked not to update, indexes first as before', async () => {
    const c = cloneRepo(origin, 'edited');
    fs.appendFileSync(path.join(c, 'src', 'cli', 'args.ts'), '\n// an edit\n');
    const edited = await search(c, QUERIES[0]);
    assert.doesNotMatch(edited.stderr, ANSWERED);
    assert.ok(fs.existsSync(path.join(c, '.ocrag', 'manifests')));
    const d = cloneRepo(origin, 'no-update');
    const r = await runCli(['search', QUERIES[0], '--no-update', '--json'], d, env);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /no index for this commit yet/);
  });

  test("a published set holding a blob that is not in HEAD's tree is refused: the search indexes first", async () => {
    // The set of a later commit, published under this commit's name with a record that matches its bytes.
    const later = cloneRepo(origin, 'later');
    fs.writeFileSync(path.join(later, 'src', 'added.ts'), 'export function doubled(x: number): number {\n  return x * 2;\n}\n');
    git(later, 'add', 'src/added.ts');
    git(later, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'doubled');
    const extra = { OCRAG_REMOTE: 's3://team/org/foreign-set' };
    assert.equal((await runCli(['publish', '--json'], cloneRepo(origin, 'pub-first'), { ...env, ...extra })).code, 0);
    assert.equal((await runCli(['publish', '--json'], later, { ...env, ...extra })).code, 0);
    const remote = openRemote(extra.OCRAG_REMOTE, { dir: tempDir('remote-foreign-set') });
    const laterRecord = JSON.parse((await remote.objects.get(`search/${git(later, 'rev-parse', 'HEAD')}.json`))!.toString('utf8')) as Record<string, unknown>;
    await remote.objects.put(`search/${first}.json`, JSON.stringify({ ...laterRecord, commit: first }));

    const e = cloneRepo(origin, 'foreign-set');
    const answer = await search(e, QUERIES[3], extra);
    assert.doesNotMatch(answer.stderr, ANSWERED);
    assert.equal(fs.existsSync(path.join(e, '.ocrag', 'remote-first')), false);
    assert.deepEqual(answer.results, resultsA[3]);
  });
});
