// Whether a search is exact is decided by the view searched, not by the store: a store that history (or another
// branch) has made large still ranks a small checked-out tree in memory, over every one of its chunks, and answers
// exactly as a fresh index of that commit. Only a view past the budget goes through the store's indexes. The
// budget is lowered for the fixture repository (OCRAG_LARGE_STORE_CHUNKS); real git, real model, LanceDB on disk.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { cloneRepo, git, makeFixtureRepo, runCli } from '../helpers.js';
import { withIndex } from '../robustness/robustness-helpers.js';

const BUDGET = 100;
// History is what this test keeps: automatic gc would drop it.
const ENV = { OCRAG_LARGE_STORE_CHUNKS: String(BUDGET), OCRAG_AUTO_GC: 'false' };
const QUERIES = ['parse command line arguments', 'parseArgs', 'retry a request with backoff', 'connect to the database', 'least recently used cache eviction', 'route an http request'];
/** Files each history commit edits: every edit stores the new blob's chunks beside the old one's. */
const EDITED = ['src/http/router.ts', 'pkg/cache/lru.go', 'server/db.py', 'java/src/main/java/com/example/Inventory.java', 'pkg/httpx/retry.go'];
// Indexed commits, each an incremental run: 12 take the store well past the budget (every one adds five blobs'
// chunks), as the 40 of a long-lived clone do; each costs a CLI run, and the suite must stay under 15 minutes.
const HISTORY_COMMITS = 12;

async function indexed(repo: string): Promise<{ chunksTotal: number; stderr: string }> {
  const r = await runCli(['index', '--json'], repo, ENV);
  assert.equal(r.code, 0, r.stderr);
  return { chunksTotal: (JSON.parse(r.stdout) as { chunksTotal: number }).chunksTotal, stderr: r.stderr };
}

/** `search --json` of every query, as printed. */
async function answers(repo: string): Promise<string[]> {
  const out: string[] = [];
  for (const q of QUERIES) {
    const r = await runCli(['search', q, '-k', '5', '--json'], repo, ENV);
    assert.equal(r.code, 0, r.stderr);
    out.push(r.stdout);
  }
  return out;
}

const marked = (repo: string) => fs.existsSync(path.join(repo, '.ocrag', 'search-indexes.json'));

function snapshots(repo: string): Map<string, number> {
  const dir = path.join(repo, '.ocrag', 'resident');
  const out = new Map<string, number>();
  if (fs.existsSync(dir)) for (const f of fs.readdirSync(dir)) out.set(f, fs.statSync(path.join(dir, f)).mtimeMs);
  return out;
}

describe('exact search is decided by the view searched, not by what the store holds', () => {
  let repo: string;
  let fresh: string;
  let freshAnswers: string[];
  /** Chunks the history's store holds. */
  let chunks = 0;

  before(async () => {
    // The history's runs are in-process, one CodeIndex following the commits (the model loaded once); the CLI's
    // index runs are below, on the large view.
    Object.assign(process.env, ENV);
    repo = makeFixtureRepo();
    await withIndex(repo, async (index) => {
      await index.index();
      for (let i = 1; i <= HISTORY_COMMITS; i++) {
        for (const file of EDITED) fs.appendFileSync(path.join(repo, file), file.endsWith('.py') ? `# revision ${i}\n` : `// revision ${i}\n`);
        git(repo, 'commit', '-q', '-am', `revision ${i}`);
        chunks = (await index.index()).chunksTotal ?? 0;
      }
    });
    fresh = cloneRepo(repo, 'fresh');
    assert.ok(((await withIndex(fresh, (index) => index.index())).chunksTotal ?? Infinity) < BUDGET, 'the checked-out tree fits the budget');
    freshAnswers = await answers(fresh);
  });

  test('a store past the budget through history alone builds no indexes and answers as a fresh index', async () => {
    assert.ok(chunks >= 2 * BUDGET, `history holds ${chunks} chunks, well past the budget of ${BUDGET}`);
    assert.ok(!marked(repo), 'no view was large: no search indexes');
    assert.ok(!marked(fresh));
    assert.deepEqual(await answers(repo), freshAnswers);
  });

  test('a large view on another branch is searched through the indexes, and the small one stays exact', async () => {
    git(repo, 'checkout', '-q', '-b', 'generated');
    fs.mkdirSync(path.join(repo, 'src', 'generated'), { recursive: true });
    for (let i = 0; i < BUDGET; i++) {
      fs.writeFileSync(path.join(repo, 'src', 'generated', `handler${i}.ts`), `/** Handles webhook event number ${i} of the billing system. */\nexport function handleWebhookEvent${i}(payload: string): string {\n  return payload.slice(${i});\n}\n`);
    }
    git(repo, 'add', 'src/generated');
    git(repo, 'commit', '-q', '-m', 'generated handlers');
    const { stderr } = await indexed(repo);
    assert.ok(marked(repo), 'a view past the budget builds the search indexes');
    assert.match(stderr, /building the full-text index/);

    const before = snapshots(repo);
    const r = await runCli(['search', 'handleWebhookEvent42', '-k', '3', '--json'], repo, ENV);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { path: string }[])[0].path, 'src/generated/handler42.ts');
    assert.deepEqual(snapshots(repo), before, 'the large view was not loaded into the in-memory set');
    assert.ok(fs.existsSync(path.join(repo, '.ocrag', 'large-views.json')), 'the next search knows the view is large without counting');
    const again = await runCli(['search', 'handleWebhookEvent42', '-k', '3', '--json'], repo, ENV);
    assert.equal(again.stdout, r.stdout);

    git(repo, 'checkout', '-q', 'main');
    assert.deepEqual(await answers(repo), freshAnswers);
  });
});
