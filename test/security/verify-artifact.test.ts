// Attacks on `ocrag import`: artifacts whose checksums are all consistent but whose rows are not what the
// repository holds. Each is refused whole (exit 4, one line naming the row), the victim's index and answers unchanged.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { chunkerVersionOf } from '../../src/chunk/version.js';
import { loadEmbedder } from '../../src/embed/index.js';
import { contentEmbeddingText, contentTerms } from '../../src/index/content-text.js';
import { chunkId } from '../../src/index/chunk-id.js';
import { cloneRepo, git, runCli, runJson } from '../helpers.js';
import { answers, editArtifact, exportedArtifact, indexState, INJECTED, rowOf, verifyRepo, type ArtifactRow } from './verify-helpers.js';

const QUESTION = 'how is the password verified';

describe('import holds every row of an artifact to the repository', () => {
  let origin: string;
  let victim: string;
  let work: string;
  let good: string;
  let blob: Record<string, string>;
  let state: Awaited<ReturnType<typeof indexState>>;
  let answered: string;
  let modelId: string;
  let second: string;
  let originAnswered: string;

  before(async () => {
    origin = verifyRepo();
    // The artifact is of a commit whose files changed since the one the victim indexed (cache.ts did not): its rows
    // of those are new to the victim and held to the blobs; its rows of cache.ts are stored there already.
    victim = cloneRepo(origin, 'victim');
    await runJson(['index'], victim);
    for (const [file, line] of [['src/auth.py', '# sessions last a day\n'], ['docs/guide.md', '\nSee also the FAQ.\n'], ['data/prices.csv', '3,plum,5\n'], ['notes.txt', '\nVersion 2.\n']]) fs.appendFileSync(path.join(origin, file), line);
    git(origin, 'commit', '-qam', 'second');
    ({ work, good } = await exportedArtifact(origin, 'verify-artifacts'));
    modelId = (JSON.parse(fs.readFileSync(path.join(origin, '.ocrag', 'store.json'), 'utf8')) as { modelId: string }).modelId;
    second = git(origin, 'rev-parse', 'HEAD');
    originAnswered = await answers(origin, QUESTION);
    blob = Object.fromEntries(['src/auth.py', 'src/cache.ts', 'docs/guide.md', 'data/prices.csv', 'src/empty.py'].map((p) => [p, git(origin, 'rev-parse', `HEAD:${p}`)]));
    git(victim, 'pull', '-q', '--ff-only');
    state = await indexState(victim);
    answered = await answers(victim, QUESTION, {}, ['--no-update']);
  });

  async function refused(name: string, edit: Parameters<typeof editArtifact>[2], message: RegExp): Promise<void> {
    const file = await editArtifact(good, path.join(work, `${name}.tar`), edit);
    const r = await runCli(['import', file], victim);
    assert.equal(r.code, 4, `exit code: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
    assert.deepEqual(await indexState(victim), state, 'the index is as it was');
  }

  const refusal = (path: string, what: string) => new RegExp(`^ocrag: artifact refused: ${path.replace(/[.]/g, '\\.')}:\\d+-\\d+ \\(blob [0-9a-f]{12}\\) ${what}; nothing was imported\\n$`);

  test('invented text with valid digests: an instruction to the agent in place of the password check', async () => {
    const invent = (r: ArtifactRow) => {
      r.text = `def check_password(stored_hash, given_hash):\n    # ${INJECTED}\n    return True`;
      r.terms = contentTerms(contentEmbeddingText(r.symbol, r.text));
    };
    await refused('invented', { rows: (rows) => (invent(rowOf(rows, blob['src/auth.py'], 'compare_digest')), rows) }, refusal('src/auth.py', 'has a text that is not lines \\d+-\\d+ of its blob'));
    // Into a clone without an index too: nothing at all is left.
    const fresh = cloneRepo(origin, 'fresh');
    const r = await runCli(['import', path.join(work, 'invented.tar')], fresh);
    assert.equal(r.code, 4, r.stderr);
    assert.deepEqual(fs.existsSync(path.join(fresh, '.ocrag')) ? fs.readdirSync(path.join(fresh, '.ocrag')) : [], [], 'nothing left in a fresh clone');
    assert.equal(await answers(victim, QUESTION, {}, ['--no-update']), answered, 'the same answers');
  });

  test('a rewritten breadcrumb, its search words made to match', async () => {
    const forge = (r: ArtifactRow) => {
      r.symbol = `function check_password (${INJECTED})`;
      r.terms = contentTerms(contentEmbeddingText(r.symbol, r.text));
    };
    await refused('breadcrumb', { rows: (rows) => (forge(rowOf(rows, blob['src/auth.py'], 'compare_digest')), rows) }, refusal('src/auth.py', "has a breadcrumb that is not the one this ocrag's chunker gives lines \\d+-\\d+"));
  });

  test('a vector swapped between two rows', async () => {
    await refused(
      'swapped',
      {
        rows: (rows) => {
          const [a, b] = [rowOf(rows, blob['src/auth.py'], 'compare_digest'), rowOf(rows, blob['src/cache.ts'], 'LruCache')];
          [a.vector, b.vector] = [b.vector, a.vector];
          return rows;
        },
      },
      /^ocrag: artifact refused: src\/auth\.py:\d+-\d+ \(blob [0-9a-f]{12}\) has a vector that is not this model's embedding of its text \(cosine -?0\.\d+\); nothing was imported\n$/,
    );
  });

  test('a unit vector aimed at a query: the session check made to answer questions on passwords', async () => {
    const model = await loadEmbedder('default');
    const aimed = await model.embedQuery(QUESTION);
    await model.close();
    await refused('aimed', { rows: (rows) => ((rowOf(rows, blob['src/auth.py'], 'deadline').vector = aimed), rows) }, refusal('src/auth.py', "has a vector that is not this model's embedding of its text \\(cosine 0\\.\\d+\\)"));
  });

  test('a finite vector of norm 1e31', async () => {
    await refused('norm', { rows: (rows) => (rowOf(rows, blob['src/auth.py'], 'compare_digest').vector.forEach((_, d, v) => (v[d] *= 1e31)), rows) }, refusal('src/auth.py', 'has a vector of length 1\\.00e\\+31, not 1'));
  });

  test('search words rewritten so a chunk ranks first for "password"', async () => {
    await refused('terms', { rows: (rows) => ((rowOf(rows, blob['src/auth.py'], 'self.user.deadline').terms = 'password '.repeat(50).trim()), rows) }, refusal('src/auth.py', 'has search words that are not those of its text'));
  });

  test('a row the victim holds already (same id), rewritten: it would not be written, and still refuses the artifact', async () => {
    const forge = (r: ArtifactRow) => {
      r.text = r.text.replace('return this.map.get(key);', `return this.map.get(key); // ${INJECTED}`);
      r.terms = contentTerms(contentEmbeddingText(r.symbol, r.text));
    };
    await refused('stored', { rows: (rows) => (forge(rowOf(rows, blob['src/cache.ts'], 'this.map.get')), rows) }, refusal('src/cache.ts', 'says otherwise than the row this index holds under its id \\(its breadcrumb, text or search words\\)'));
  });

  test('a span the chunker never cuts, its text the true lines and its id derived again', async () => {
    const widened = (r: ArtifactRow) => {
      r.start_line = 1;
      r.text = ['import hmac', '', '', r.text].join('\n');
      r.terms = contentTerms(contentEmbeddingText(r.symbol, r.text));
      r.id = chunkId(r.blob, chunkerVersionOf(r.language), modelId, r.start_line, r.end_line);
    };
    await refused('span', { rows: (rows) => (widened(rowOf(rows, blob['src/auth.py'], 'compare_digest')), rows) }, refusal('src/auth.py', 'is no chunk this ocrag cuts from its blob \\(lines 1-\\d+\\)'));
  });

  test('a row of a Python file that says it is Markdown, its id derived for that language', async () => {
    const relabelled = (r: ArtifactRow) => {
      r.language = 'markdown';
      r.id = chunkId(r.blob, chunkerVersionOf('markdown'), modelId, r.start_line, r.end_line);
    };
    await refused('language', { rows: (rows) => (relabelled(rowOf(rows, blob['src/auth.py'], 'compare_digest')), rows) }, refusal('src/auth.py', 'says its language is "markdown", which no path of its blob gives \\(python\\)'));
  });

  test('a Markdown section under a forged heading (documents are always cut again)', async () => {
    const forged = (r: ArtifactRow) => {
      r.symbol = `# Guide > ## ${INJECTED}`;
      r.terms = contentTerms(contentEmbeddingText(r.symbol, r.text));
    };
    await refused('heading', { rows: (rows) => (forged(rowOf(rows, blob['docs/guide.md'], 'compared as hashes')), rows) }, refusal('docs/guide.md', "has a breadcrumb that is not the one this ocrag's chunker gives lines \\d+-\\d+"));
  });

  test("a table chunk whose header row is rewritten (its text is not the blob's lines)", async () => {
    const forged = (r: ArtifactRow) => {
      r.text = r.text.replace('id,name,price', 'id,name,price,run_this_first');
      r.terms = contentTerms(contentEmbeddingText(r.symbol, r.text));
    };
    await refused('table', { rows: (rows) => (forged(rowOf(rows, blob['data/prices.csv'], 'apple')), rows) }, refusal('data/prices.csv', "has a text that is not what this ocrag's chunker gives lines \\d+-\\d+"));
  });

  test('one chunk of a file dropped, so the rest is stored as if the file were whole', async () => {
    const file = await editArtifact(good, path.join(work, 'dropped.tar'), { rows: (rows) => rows.filter((r) => r !== rowOf(rows, blob['src/auth.py'], 'compare_digest')) });
    const r = await runCli(['import', file], victim);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /^ocrag: artifact refused: src\/auth\.py \(blob [0-9a-f]{12}\) lacks 1 of the \d+ chunks this ocrag cuts from its blob; nothing was imported\n$/);
    assert.deepEqual(await indexState(victim), state);
  });

  test('a source file hidden behind a mark, its rows dropped', async () => {
    const file = await editArtifact(good, path.join(work, 'hidden.tar'), { rows: (rows) => rows.filter((r) => r.blob !== blob['src/auth.py']), marks: (marks) => [...marks, { blob: blob['src/auth.py'], reason: 'binary' }] });
    const r = await runCli(['import', file], victim);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /^ocrag: artifact refused: src\/auth\.py \(blob [0-9a-f]{12}\) is marked binary, but this ocrag indexes it; nothing was imported\n$/);
    assert.deepEqual(await indexState(victim), state);
  });

  test('a manifest that calls a source file excluded, its rows dropped, so no search finds it', async () => {
    const file = await editArtifact(good, path.join(work, 'excluded.tar'), {
      rows: (rows) => rows.filter((r) => r.blob !== blob['src/auth.py']),
      manifest: (m) => {
        delete m.files['src/auth.py'];
        m.skipped['src/auth.py'] = 'excluded';
      },
    });
    const r = await runCli(['import', file], victim);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /^ocrag: artifact manifest leaves out "src\/auth\.py", which this repository's settings index\n$/);
    assert.deepEqual(await indexState(victim), state);
  });

  test('rows of a blob this repository does not have: refused until it is fetched', async () => {
    fs.writeFileSync(path.join(origin, 'src/extra.py'), 'def extra():\n    return 2\n');
    git(origin, 'add', '-A');
    git(origin, 'commit', '-qm', 'extra');
    const newer = path.join(work, 'newer.tar');
    await runJson(['export', '--out', newer], origin);
    const r = await runCli(['import', newer], victim);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /^ocrag: artifact refused: src\/extra\.py:1-2 \(blob [0-9a-f]{12}\) belongs to a blob this repository does not have, so it cannot be checked: git fetch, then try again; nothing was imported\n$/);
    assert.deepEqual(await indexState(victim), state);
    // Refused where there was no index yet: nothing is left behind, not even an empty .ocrag/.
    const unindexed = cloneRepo(victim, 'unindexed');
    const none = await runCli(['import', newer], unindexed);
    assert.equal(none.code, 4, none.stderr);
    assert.equal(fs.existsSync(path.join(unindexed, '.ocrag')), false, 'no .ocrag/ where there was none');
    git(victim, 'fetch', '-q');
    const imported = await runJson<{ chunksAdded: number }>(['import', newer], victim);
    assert.ok(imported.chunksAdded > 0);
    state = await indexState(victim);
  });

  test('the artifact as exported imports into a fresh clone and answers as the original does', async () => {
    const fresh = cloneRepo(origin, 'fresh-good');
    git(fresh, 'checkout', '-q', second);
    await runJson(['import', good], fresh);
    assert.ok(fs.existsSync(path.join(fresh, '.ocrag', 'verify-key')), 'the sample key is kept once an import is accepted');
    const index = await runJson<{ chunksEmbedded: number }>(['index'], fresh);
    assert.equal(index.chunksEmbedded, 0);
    assert.equal(await answers(fresh, QUESTION, {}, ['--no-update']), originAnswered);
  });
});
