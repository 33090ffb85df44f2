// `ocrag search --min-match`: the relevance cut search_code applies by default, on request in the CLI.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeFixtureRepo, runCli, runJson } from './helpers.js';

describe('ocrag search --min-match', () => {
  test('an off-topic question gets "no good match" and no result; a real one keeps its chunk; without it nothing changes', async () => {
    const repo = makeFixtureRepo();
    await runJson(['index'], repo);
    const off = await runCli(['search', '--min-match', '0.3', '--json', 'how to knit a wool sweater for winter'], repo);
    assert.equal(off.code, 0, off.stderr);
    assert.deepEqual(JSON.parse(off.stdout), []);
    assert.match(off.stderr, /no good match for "how to knit a wool sweater for winter" \(--min-match 0\.3\)/);
    const real = await runJson<{ path: string }[]>(['search', '--min-match', '0.3', '--json', 'parse command line arguments'], repo);
    assert.equal(real[0].path, 'src/cli/args.ts');
    const plain = await runJson<unknown[]>(['search', '--json', '-k', '3', 'how to knit a wool sweater for winter'], repo);
    assert.equal(plain.length, 3, 'the default answers as before');
    const bad = await runCli(['search', '--min-match', '2', 'x'], repo);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--min-match must be a number from 0 to 1, got "2"/);
  });
});
