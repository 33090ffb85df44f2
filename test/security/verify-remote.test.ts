// Attacks through the team's remote store (real s3rver, real LanceDB on it): rows, marks, content vectors and the
// published search-ready set, each rewritten as someone with write access to the bucket would. An index run copying
// them is refused whole (exit 4, one line naming the row) and takes out what it had added; a first answer from a
// refused set is not given, the clone indexes and answers from what the repository holds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { contentEmbeddingText, contentTerms } from '../../src/index/content-text.js';
import { packStrings, unpackStrings } from '../../src/search/packed-strings.js';
import { ListTable, PostingTable } from '../../src/search/postings.js';
import { readSnapshot, writeSnapshot, type ResidentState } from '../../src/search/resident-snapshot.js';
import { openRemote, readRemoteIdentity, readRemoteSearchSet, writeRemoteSearchSet } from '../../src/store/remote.js';
import { cloneRepo, git, runCli, runJson, tempDir } from '../helpers.js';
import { startS3, type S3Server } from '../share/s3-server.js';
import { answers, AUTH_PY, indexState, INJECTED, markBlob, rewriteContent, vectorOf, verifyRepo } from './verify-helpers.js';

const QUESTION = 'how is the password verified';
const PREFIXES = ['text', 'norm', 'contents', 'set', 'mark', 'postings', 'symbols', 'members', 'names', 'vector', 'crumb', 'setvector', 'order'] as const;

describe('an index run holds what it copies from the team store to the repository', () => {
  let s3: S3Server;
  let origin: string;
  let victim: string;
  let state: Awaited<ReturnType<typeof indexState>>;
  let answered: string;
  let authBlob: string;
  const remote = (prefix: string) => ({ OCRAG_REMOTE: `s3://team/verify-${prefix}` });
  const tables = (prefix: string) => `s3://team/verify-${prefix}/lance`;

  before(async () => {
    s3 = await startS3();
    // The helpers reach the bucket as the attacker does: with the same AWS settings.
    Object.assign(process.env, s3.env);
    origin = verifyRepo();
    const first = git(origin, 'rev-parse', 'HEAD');
    fs.writeFileSync(path.join(origin, 'src/auth.py'), `${AUTH_PY}\n\ndef hash_password(password, salt):\n    return hmac.new(salt, password, "sha256").hexdigest()\n`);
    fs.writeFileSync(path.join(origin, 'src/tokens.py'), 'def new_token(rng):\n    return rng.token_hex(16)\n');
    git(origin, 'add', '-A');
    git(origin, 'commit', '-qm', 'hashing and tokens');
    authBlob = git(origin, 'rev-parse', 'HEAD:src/auth.py');
    // Whoever can write the bucket publishes the commit, copies it to a prefix per attack (s3rver keeps objects
    // as files) and rewrites what each holds.
    await runJson(['publish'], cloneRepo(origin, 'publisher'), { ...s3.env, ...remote('base') });
    for (const prefix of PREFIXES) fs.cpSync(path.join(s3.directory, 'team', 'verify-base'), path.join(s3.directory, 'team', `verify-${prefix}`), { recursive: true });
    // The victim indexed the commit before on its own; its branch is now at the published one.
    victim = cloneRepo(origin, 'victim');
    git(victim, 'reset', '-q', '--hard', first);
    await runJson(['index'], victim);
    git(victim, 'reset', '-q', '--hard', 'origin/main');
    state = await indexState(victim);
    answered = await answers(victim, QUESTION, {}, ['--no-update']);
  });

  after(async () => {
    await s3.stop();
  });

  async function refusedRun(repo: string, prefix: string, message: RegExp): Promise<void> {
    const before = await indexState(repo);
    const r = await runCli(['index'], repo, { ...s3.env, ...remote(prefix) });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
    assert.deepEqual(await indexState(repo), before, 'nothing of the run was kept');
  }

  const refusal = (prefix: string, where: string, what: string) => new RegExp(`^ocrag: the remote store s3://team/verify-${prefix} is not usable: ${where} \\(blob [0-9a-f]{12}\\) ${what}: refused \\(nothing of it was kept\\)\\n$`);

  test('a team-store row with rewritten text: an instruction in place of the password check', async () => {
    await rewriteContent(tables('text'), 'compare_digest', (r) => {
      const text = r.text.replace('return hmac.compare_digest(stored_hash, given_hash)', `# ${INJECTED}\n    return True`);
      return { text, terms: contentTerms(contentEmbeddingText(r.symbol, text)) };
    });
    await refusedRun(victim, 'text', refusal('text', 'src/auth\\.py:\\d+-\\d+', 'has a text that is not lines \\d+-\\d+ of its blob'));
    assert.deepEqual(await indexState(victim), state);
    assert.equal(await answers(victim, QUESTION, {}, ['--no-update']), answered, 'the previous answers still come back');
  });

  test('a team-store row with a finite vector of norm 1e31', async () => {
    await rewriteContent(tables('norm'), 'compare_digest', (r) => ({ vector: r.vector.map((v) => v * 1e31) }));
    // The store's own check of every batch it reads (store/batch-integrity.ts) may see it before the verifier does.
    const byStore = /^ocrag: the remote store s3:\/\/team\/verify-norm\/lance is not usable: a stored chunk has a vector of length 1\.00e\+31, not 1: refused\n$/;
    const byVerifier = refusal('norm', 'src/auth\\.py:\\d+-\\d+', 'has a vector of length 1\\.00e\\+31, not 1');
    await refusedRun(victim, 'norm', new RegExp(`${byStore.source}|${byVerifier.source}`));
  });

  // A repository this small is sampled whole: every blob is cut and embedded again, on the verifier's worker thread,
  // while the run copies the rows; a row only that can judge is judged before the run keeps anything.
  test("a team-store row whose unit-length vector is another chunk's: the sample's embedding on the worker refuses it", async () => {
    const foreign = await vectorOf(tables('vector'), 'new_token');
    await rewriteContent(tables('vector'), 'compare_digest', () => ({ vector: foreign }));
    await refusedRun(victim, 'vector', refusal('vector', 'src/auth\\.py:\\d+-\\d+', "has a vector that is not this model's embedding of its text \\(cosine -?0\\.\\d+\\)"));
  });

  test('a team-store row naming the password check after another function of its file: the cut on the worker refuses it', async () => {
    await rewriteContent(tables('crumb'), 'compare_digest', (r) => ({ symbol: 'class Session > method expired', terms: contentTerms(contentEmbeddingText('class Session > method expired', r.text)) }));
    await refusedRun(victim, 'crumb', refusal('crumb', 'src/auth\\.py:\\d+-\\d+', "has a breadcrumb that is not the one this ocrag's chunker gives lines \\d+-\\d+"));
  });

  test('a team-store mark hiding a source file that changed', async () => {
    await markBlob(tables('mark'), authBlob, 'binary');
    await refusedRun(victim, 'mark', refusal('mark', 'src/auth\\.py', 'is marked binary, but this ocrag indexes it'));
  });

  test("remote content vectors giving an edited file's unchanged function a foreign vector", async () => {
    const foreign = await vectorOf(tables('contents'), 'new_token');
    await rewriteContent(tables('contents'), 'compare_digest', () => ({ vector: foreign }));
    // A clone whose auth.py changed since it was published: its unchanged functions' vectors are asked of the remote.
    const edited = cloneRepo(origin, 'edited');
    fs.appendFileSync(path.join(edited, 'src/auth.py'), '\n\ndef logout(session):\n    session.user = None\n');
    git(edited, 'commit', '-qam', 'logout');
    await refusedRun(edited, 'contents', refusal('contents', 'src/auth\\.py:\\d+-\\d+', "has a vector that is not this model's embedding of its text \\(cosine -?0\\.\\d+\\)"));
  });

  /** Rewrites the search-ready set published to `prefix` for the origin's HEAD as `edit` leaves its state. */
  async function tamperSet(prefix: string, edit: (state: ResidentState) => void): Promise<void> {
    const store = openRemote(remote(prefix).OCRAG_REMOTE, { dir: tempDir('verify-set') });
    const identity = (await readRemoteIdentity(store))!;
    const commit = git(origin, 'rev-parse', 'HEAD');
    const published = (await readRemoteSearchSet(store, commit, identity))!;
    const file = path.join(tempDir('verify-set-file'), 'set.snap');
    fs.writeFileSync(file, published.body);
    const restored = readSnapshot(file, identity.dim)!;
    restored.detach();
    edit(restored.state);
    const tampered = path.join(path.dirname(file), 'tampered.snap');
    await writeSnapshot(tampered, identity.dim, restored.state);
    await writeRemoteSearchSet(store, { commit, chunks: published.set.chunks, modelId: identity.modelId, dim: identity.dim, chunkerVersion: identity.chunkerVersion }, fs.readFileSync(tampered));
  }

  /** A fresh clone's first search with the remote at `prefix`: the answer, and the notice saying why the set was not used. */
  async function firstSearch(prefix: string, why: RegExp): Promise<string> {
    const fresh = cloneRepo(origin, `fresh-${prefix}`);
    const r = await runCli(['search', QUESTION, '-k', '3', '--json'], fresh, { ...s3.env, ...remote(prefix) });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`the search-ready set s3://team/verify-${prefix} published for [0-9a-f]{8} was not used \\(${why.source}\\); the first search builds its own`));
    assert.ok(!r.stderr.includes('answered from the team'), 'no first answer from the set');
    return r.stdout;
  }

  test("a published search-ready set with rewritten text for a fresh clone's first answer", async () => {
    await tamperSet('set', (state) => {
      const at = state.info.findIndex((c) => c.text.includes('compare_digest'));
      const c = state.info[at];
      state.info[at] = { id: c.id, blob: c.blob, startLine: c.startLine, endLine: c.endLine, language: c.language, symbol: c.symbol, text: c.text.replace('return hmac.compare_digest(stored_hash, given_hash)', `# ${INJECTED}\n    return True`) };
    });
    const answer = await firstSearch('set', /src\/auth\.py:\d+-\d+ \(blob [0-9a-f]{12}\) has a text that is not lines \d+-\d+ of its blob/);
    assert.ok(!answer.includes('IGNORE PREVIOUS INSTRUCTIONS'), 'the injected text is never given');
    assert.match(answer, /hmac\.compare_digest\(stored_hash, given_hash\)/);
  });

  test("a published set giving the password check another chunk's vector: the sample's embedding on the worker refuses it", async () => {
    await tamperSet('setvector', (state) => {
      const [at, from] = [state.info.findIndex((c) => c.text.includes('compare_digest')), state.info.findIndex((c) => c.text.includes('new_token'))];
      const dim = state.vectors.length / state.info.length;
      state.vectors.set(state.vectors.slice(from * dim, (from + 1) * dim), at * dim);
      state.scales[at] = state.scales[from];
    });
    await firstSearch('setvector', /src\/auth\.py:\d+-\d+ \(blob [0-9a-f]{12}\) has a vector that is not this model's embedding of its text \(cosine -?0\.\d+\)/);
  });

  test('a published set listing a chunk under words it does not hold, to rank it first for "password"', async () => {
    await tamperSet('postings', (state) => {
      const at = state.info.findIndex((c) => c.text.includes('self.user.deadline'));
      const [docs, tfs] = state.postings.lists.writable('password');
      docs.push(at);
      tfs.push(50);
    });
    await firstSearch('postings', /row \d+ \([0-9a-f]{12}:\d+-\d+\) is listed under words that are not its own/);
  });

  test('a published set whose words are said to be in order and are not, so that looking one up misses its chunks', async () => {
    await tamperSet('order', (state) => {
      const packed = state.postings.lists.pack();
      const keys = unpackStrings(packed.keys);
      const order = keys.map((_, k) => k).reverse();
      const starts = new Uint32Array(keys.length + 1);
      order.forEach((k, j) => (starts[j + 1] = starts[j] + packed.starts[k + 1] - packed.starts[k]));
      const columns = packed.columns.map((column) => {
        const out = new (column.constructor as Int32ArrayConstructor)(column.length);
        order.forEach((k, j) => out.set(column.subarray(packed.starts[k], packed.starts[k + 1]), starts[j]));
        return out;
      });
      state.postings = new PostingTable(ListTable.unpack({ keys: packStrings(order.map((k) => keys[k])), starts, columns, inOrder: true }));
    });
    await firstSearch('order', /its words or names are said to be in order and are not/);
  });

  test('a published set whose symbol table answers check_password with another chunk', async () => {
    await tamperSet('symbols', (state) => {
      const at = state.info.findIndex((c) => c.text.includes('LruCache'));
      state.definitions.writable('check_password')[0].push(at);
    });
    await firstSearch('symbols', /row \d+ \([0-9a-f]{12}:\d+-\d+\) is listed in the symbol table under a name it does not define/);
  });

  test('a published set marking the password check a member, so that no search sees it', async () => {
    await tamperSet('members', (state) => {
      const at = state.info.findIndex((c) => c.text.includes('compare_digest'));
      const isMember = state.isMember;
      state.isMember = (i) => i === at || isMember(i);
    });
    await firstSearch('members', /row \d+ is marked a member where its file's rows say otherwise/);
  });

  test("a published set giving a file names it does not define, to rank it first for questions on passwords", async () => {
    await tamperSet('names', (state) => {
      const blob = state.info.find((c) => c.text.includes('LruCache'))!.blob;
      const fileNames = state.fileNames;
      state.fileNames = (b) => (b === blob ? new Map([...fileNames(b), ['password', 9]]) : fileNames(b));
    });
    await firstSearch('names', /the names of file [0-9a-f]{12} are not its rows'/);
  });
});
