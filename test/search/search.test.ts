import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CodeIndex } from '../../src/service/code-index.js';
import type { SearchResult } from '../../src/search/search.js';
import { makeFixtureRepo, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

describe('search ranking on the fixture repository', () => {
  let index: CodeIndex;
  const search = (query: string, k = 5): Promise<SearchResult[]> => index.search(query, { k, update: false, committedOnly: true });

  before(async () => {
    index = await CodeIndex.open(makeFixtureRepo());
    await index.index();
  });
  after(() => index.close());

  test('an identifier query returns its definition first', async () => {
    for (const [name, path, definition] of [
      ['parseArgs', 'src/cli/args.ts', /export function parseArgs\(/],
      ['Database', 'server/db.py', /class Database/],
      ['hash_password', 'server/auth.py', /def hash_password\(/],
    ] as const) {
      const [top] = await search(name);
      assert.equal(top.path, path, `${name} → ${top.path}`);
      assert.match(top.text, definition);
    }
  });

  test('a test file that matches the words ranks below the implementation for a non-test query', async () => {
    // Without the test-file penalty the test ranks first for these words (it spells out flags, out, input, positionals).
    const results = await search('flags out input positionals', 10);
    const impl = results.findIndex((r) => r.path === 'src/cli/args.ts');
    const spec = results.findIndex((r) => r.path === 'test/args.test.ts');
    assert.ok(impl === 0, `implementation first: ${results.map((r) => r.path).join(', ')}`);
    assert.ok(spec === -1 || spec > impl, `test file (#${spec}) below the implementation (#${impl})`);
  });

  test('a query about tests may rank the test first', async () => {
    const results = await search('test that parses flags and positionals', 10);
    assert.ok(results.some((r) => r.path === 'test/args.test.ts'), results.map((r) => r.path).join(', '));
  });

  test('one file cannot take every slot', async () => {
    const results = await search('parse command line arguments', 5);
    assert.ok(new Set(results.map((r) => r.path)).size >= 3, results.map((r) => r.path).join(', '));
  });

  test('scores are 0..1, best first, and --min-score drops weak matches', async () => {
    const results = await search('evict least recently used cache entry', 10);
    assert.ok(results.length > 1);
    for (let i = 0; i < results.length; i++) {
      assert.ok(results[i].score >= 0 && results[i].score <= 1, `score ${results[i].score} in 0..1`);
      if (i) assert.ok(results[i].score <= results[i - 1].score, 'ordered by score');
    }
    const cut = results[Math.floor(results.length / 2)].score;
    const strong = await index.search('evict least recently used cache entry', { k: 10, minScore: cut, update: false, committedOnly: true });
    assert.ok(strong.length > 0 && strong.length < results.length && strong.every((r) => r.score >= cut));
  });

  test('a question on how the code works draws on what whole files are about; other sentences do not', async () => {
    const both = async (query: string) => {
      const opts = { k: 10, update: false, committedOnly: true };
      const on = await index.search(query, opts);
      const off = await index.search(query, { ...opts, ranking: { fileTopic: false } });
      return { on, off };
    };
    const question = await both('how are passwords hashed and verified');
    assert.equal(question.on[0].path, 'server/auth.py', question.on.map((r) => r.path).join(', '));
    assert.ok(question.on[0].score > question.off[0].score, 'the file evidence adds to the question\'s best hit');
    // The names half alone: server/auth.py defines hash_password and verify_password.
    const [byNames] = await index.search('how are passwords hashed and verified', { k: 10, update: false, committedOnly: true, ranking: { fileTopicNameShare: 1 } });
    assert.equal(byNames.path, 'server/auth.py');
    assert.ok(byNames.score > question.off[0].score, 'the names a file defines add to the question\'s best hit');
    const phrase = await both('password hashing and verification');
    assert.deepEqual(phrase.on.map((r) => [r.path, r.startLine, r.score]), phrase.off.map((r) => [r.path, r.startLine, r.score]));
  });

  test('whole-file evidence (every word of the question somewhere in the file) counts for questions on how the code works only', async () => {
    const opts = { k: 10, update: false, committedOnly: true };
    const question = 'how are passwords hashed and verified';
    const on = await index.search(question, opts);
    const off = await index.search(question, { ...opts, ranking: { fileEvidence: false } });
    assert.equal(on[0].path, 'server/auth.py', on.map((r) => r.path).join(', '));
    assert.ok(on[0].score > off[0].score, 'the file evidence adds to the question\'s best hit');
    const phrase = 'password hashing and verification';
    const plain = await index.search(phrase, opts);
    const without = await index.search(phrase, { ...opts, ranking: { fileEvidence: false } });
    assert.deepEqual(plain.map((r) => [r.path, r.startLine, r.score]), without.map((r) => [r.path, r.startLine, r.score]));
  });
});
