// `ocrag search`'s relevance rule (src/search/relevance.ts), on by default as in search_code and the plugin: an
// off-topic question gets "no good match"; on-topic and long questions naming an identifier still answer.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import path from 'node:path';
import { committedRepo, LONG_QUESTION_WITH_IDENTIFIER, makeFixtureRepo, runCli, runJson, tempDir } from './helpers.js';

describe('ocrag search: "no good match" by default', () => {
  test('an off-topic question gets "no good match" and no result; on-topic and long questions answer; --min-match 0 shows everything', async () => {
    const repo = makeFixtureRepo();
    await runJson(['index'], repo);
    for (const question of ['how to knit a wool sweater for winter', 'kubernetes helm chart ingress annotations', '今天天气怎么样']) {
      const off = await runCli(['search', '--json', question], repo);
      assert.equal(off.code, 0, off.stderr);
      assert.deepEqual(JSON.parse(off.stdout), [], question);
      assert.match(off.stderr, /^ocrag: no good match for ".+": .*an identifier you know.*--min-match 0 to see the closest chunks anyway\n$/, question);
    }
    const text = await runCli(['search', 'how to knit a wool sweater for winter'], repo);
    assert.equal(text.stdout, '');
    assert.doesNotMatch(text.stderr, /no results/, 'said once');
    const real = await runJson<{ path: string }[]>(['search', '--json', 'parse command line arguments'], repo);
    assert.equal(real[0].path, 'src/cli/args.ts');
    const long = await runJson<{ path: string }[]>(['search', '--json', LONG_QUESTION_WITH_IDENTIFIER], repo);
    assert.equal(long[0]?.path, 'src/cli/args.ts', 'a long question holding a rare identifier answers');
    const all = await runJson<unknown[]>(['search', '--json', '-k', '3', '--min-match', '0', 'how to knit a wool sweater for winter'], repo);
    assert.equal(all.length, 3, '--min-match 0 answers with the closest chunks');
    const narrowed = await runCli(['search', '--path', 'src/cli/**', 'how to knit a wool sweater for winter'], repo);
    assert.match(narrowed.stderr, /^ocrag: no good match for "how to knit a wool sweater for winter": nothing in the files the filter keeps is close enough/, 'a filter narrowed what was judged');
    // The language is kept after ranking: none of it among the best, said in the CLI's flags (as MCP and the plugin say it in theirs).
    const language = await runCli(['search', '--language', 'typescript', 'how to knit a wool sweater for winter'], repo);
    assert.equal(language.code, 0, language.stderr);
    assert.equal(language.stderr, 'ocrag: no typescript results among the best matches that match well enough (--min-match 0.25); try without --language or with --path\n');
    const floor = await runCli(['search', '--min-score', '0.99', 'parse command line arguments'], repo);
    assert.equal(floor.stderr, 'no results\n', 'a score floor the user chose: the empty answer is theirs, said plainly');
    const bad = await runCli(['search', '--min-match', '2', 'x'], repo);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--min-match must be a number from 0 to 1, got "2"/);
  });

  test('a repository of one file: a real question about it answers, off-topic ones still do not', async () => {
    // In a view this small every word its chunk holds is "common"; rarity is judged as in a view of 64 chunks.
    const auth = 'def check_password(given, stored):\n    """Compare a login attempt with the stored hash in constant time."""\n    return hmac.compare_digest(given, stored)\n';
    const repo = committedRepo(path.join(tempDir('min-match-tiny'), 'repo'), { 'src/auth.py': auth }, 'one');
    await runJson(['index'], repo);
    for (const question of ['how is the password verified', "how do we verify a user's password"]) {
      const found = await runJson<{ path: string }[]>(['search', '--json', '-k', '1', question], repo);
      assert.equal(found[0]?.path, 'src/auth.py', question);
    }
    for (const question of ['chocolate cake recipe with fresh strawberries', 'kubernetes helm chart ingress annotations', '今天天气怎么样']) {
      assert.deepEqual(await runJson<unknown[]>(['search', '--json', question], repo), [], question);
    }
  });
});
