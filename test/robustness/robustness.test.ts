// A damaged .ocrag/ is detected with a clear message and recovered by an automatic run or by
// `ocrag index --rebuild`; it never crashes a hook and never blocks git.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { installHooks } from '../../src/git/hook-files.js';
import { runHook } from '../../src/service/hook-run.js';
import { openRepo } from '../../src/git/repo.js';
import { OcragError } from '../../src/util/errors.js';
import { git, makeFixtureRepo } from '../helpers.js';
import { cli, copyRepo, layoutOf, manifestsOf, withIndex } from './robustness-helpers.js';

const QUERY = 'parse command line arguments';

/** The data files of the chunk tables, contents first (LanceDB keeps rows in `<table>.lance/data/*.lance`). */
function chunkDataFiles(repo: string): string[] {
  return ['contents', 'chunk_refs'].flatMap((table) => {
    const dir = path.join(layoutOf(repo).tables, `${table}.lance`, 'data');
    return fs.readdirSync(dir).map((f) => path.join(dir, f));
  });
}

async function searchTop(repo: string, update = false): Promise<string | undefined> {
  return withIndex(repo, async (index) => (await index.search(QUERY, { k: 1, update }))[0]?.path);
}

/** Commits a change (so the hook has work to do) and runs the hook's background work in this process. */
async function hookLogsFailure(repo: string, pattern: RegExp): Promise<void> {
  fs.appendFileSync(path.join(repo, 'src/util/color.ts'), '\n// touched\n');
  git(repo, 'commit', '-q', '-am', 'a commit the hook indexes');
  await runHook(repo, 'post-commit', []);
  assert.match(fs.readFileSync(layoutOf(repo).log, 'utf8'), pattern);
}

describe('a damaged index', () => {
  let base: string;

  before(async () => {
    base = makeFixtureRepo();
    await withIndex(base, (index) => index.index());
  });

  test('truncated manifest: treated as absent, the next search re-indexes without embedding anything', async () => {
    const repo = copyRepo(base, 'torn-manifest');
    const file = path.join(layoutOf(repo).manifests, 'branch-main.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, 200));
    const stale = await cli(['search', '--no-update', QUERY], repo);
    assert.equal(stale.code, 4);
    assert.match(stale.stderr, /no index for this commit yet: run "ocrag index"/);
    const r = await cli(['search', QUERY, '--json', '-k', '1'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /updating it first/);
    assert.equal(JSON.parse(r.stdout)[0].path, 'src/cli/args.ts');
    assert.deepEqual(manifestsOf(repo), manifestsOf(base));
  });

  test('deleted LanceDB data file: search, status and doctor say "damaged: run ocrag index --rebuild", which fixes it', async () => {
    const repo = copyRepo(base, 'lost-fragment');
    for (const f of chunkDataFiles(repo)) fs.rmSync(f);
    const search = await cli(['search', QUERY], repo);
    assert.equal(search.code, 4, search.stderr);
    assert.match(search.stderr, /^ocrag: the index is damaged \(.*Not found.*\): run "ocrag index --rebuild"/);
    assert.doesNotMatch(search.stderr, /\.rs:\d+|Caused by/, 'no Rust source locations');
    const status = await cli(['status'], repo);
    assert.equal(status.code, 4);
    assert.match(status.stderr, /damaged.*--rebuild/);
    const doctor = await cli(['doctor', '--json'], repo);
    const index = (JSON.parse(doctor.stdout) as { name: string; status: string; fix?: string }[]).find((c) => c.name === 'index');
    assert.deepEqual([index?.status, index?.fix], ['fail', 'run "ocrag index --rebuild"']);
    await hookLogsFailure(repo, /post-commit: failed: the index is damaged/);
    const rebuild = await cli(['index', '--rebuild'], repo);
    assert.equal(rebuild.code, 0, rebuild.stderr);
    assert.equal(await searchTop(repo), 'src/cli/args.ts');
  });

  test('garbage in a data file or in a LanceDB version file is damage too', async () => {
    const repo = copyRepo(base, 'garbage-lance');
    const [data] = chunkDataFiles(repo);
    fs.writeFileSync(data, fs.readFileSync(data).subarray(0, 100));
    await assert.rejects(searchTop(repo), (e: OcragError) => e.kind === 'index' && e.remedy?.full === true && /damaged.*--rebuild/.test(e.message));
    const versions = path.join(layoutOf(repo).tables, 'contents.lance', '_versions');
    for (const f of fs.readdirSync(versions)) if (f.endsWith('.manifest')) fs.writeFileSync(path.join(versions, f), 'garbage\n');
    await assert.rejects(searchTop(repo), (e: OcragError) => e.kind === 'index' && e.remedy?.full === true && /damaged.*--rebuild/.test(e.message));
    await withIndex(repo, (index) => index.index({ rebuild: true }));
    assert.equal(await searchTop(repo), 'src/cli/args.ts');
  });

  test('a missing chunks table is damage, never an empty result list', async () => {
    const repo = copyRepo(base, 'lost-table');
    fs.rmSync(path.join(layoutOf(repo).tables, 'chunk_refs.lance'), { recursive: true });
    await assert.rejects(searchTop(repo), (e: OcragError) => e.kind === 'index' && /table "chunk_refs" is missing.*--rebuild/.test(e.message));
  });

  test('a deleted store folder is rebuilt by the next search on its own (the manifests are dropped with it)', async () => {
    const repo = copyRepo(base, 'lost-store');
    fs.rmSync(layoutOf(repo).tables, { recursive: true });
    assert.equal(await searchTop(repo, true), 'src/cli/args.ts');
    assert.deepEqual(manifestsOf(repo), manifestsOf(base));
  });

  test('garbage store.json: exit 4 with the fix; hooks log it and exit 0; --rebuild recovers', async () => {
    const repo = copyRepo(base, 'bad-meta');
    fs.writeFileSync(layoutOf(repo).meta, '{"format": 1, "modelId": ');
    const r = await cli(['search', QUERY], repo);
    assert.equal(r.code, 4);
    assert.match(r.stderr, /store\.json is unreadable\): run "ocrag index --rebuild"/);
    await hookLogsFailure(repo, /post-commit: failed: .*store\.json is unreadable/);
    await withIndex(repo, (index) => index.index({ rebuild: true }));
    assert.equal(await searchTop(repo), 'src/cli/args.ts');
  });

  test('garbage config: a usage error naming the file; git commits with hooks installed still succeed and the hook logs why it did nothing', async () => {
    const repo = copyRepo(base, 'bad-config');
    fs.writeFileSync(layoutOf(repo).config, '{ "exclude": [1, 2');
    const r = await cli(['search', QUERY], repo);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /invalid config .*config\.json.*fix or delete it/);
    await installHooks(await openRepo(repo));
    fs.appendFileSync(path.join(repo, 'src/util/color.ts'), '\n// touched\n');
    git(repo, 'commit', '-q', '-am', 'commit with a broken ocrag config');
    const deadline = Date.now() + 30_000;
    while (!/post-commit: failed: invalid config/.test(readLog(repo))) {
      assert.ok(Date.now() < deadline, `the hook logged nothing: ${readLog(repo)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    fs.rmSync(layoutOf(repo).config);
    assert.equal(await searchTop(repo, true), 'src/cli/args.ts');
  });
});

function readLog(repo: string): string {
  try {
    return fs.readFileSync(layoutOf(repo).log, 'utf8');
  } catch {
    return '';
  }
}

describe('a long-lived index after a branch switch', () => {
  test('answering "as the index is" (no update) never lays the new branch over the old branch\'s manifest', async () => {
    const repo = copyRepo(makeFixtureRepo(), 'switch');
    git(repo, 'checkout', '-q', '-b', 'feature');
    fs.writeFileSync(path.join(repo, 'src/feature-only.ts'), 'export function featureOnlyMarker(): string {\n  return "feature only";\n}\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'feature');
    await withIndex(repo, async (index) => {
      await index.index();
      assert.equal((await index.search('featureOnlyMarker', { k: 1 }))[0]?.path, 'src/feature-only.ts');
      git(repo, 'checkout', '-q', '-b', 'unindexed', 'main');
      // A server whose own re-index is running answers without updating: main was never indexed, so there is
      // nothing true to answer from, rather than feature's files on a work tree that no longer has them.
      await assert.rejects(index.search('featureOnlyMarker', { k: 1, update: false }), (e: OcragError) => e.kind === 'index' && /no index for this commit yet/.test(e.message));
      git(repo, 'checkout', '-q', 'feature');
      assert.equal((await index.search('featureOnlyMarker', { k: 1, update: false }))[0]?.path, 'src/feature-only.ts');
    });
  });
});
