// `ocrag index` that selects no file: one warning line on stderr, `warnings` in --json, exit code unchanged.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeFixtureRepo, runCli } from './helpers.js';

describe('ocrag index warnings', () => {
  test('--include that matches nothing warns once, with and without --json; a normal run has no warnings', async () => {
    const repo = makeFixtureRepo();
    const json = await runCli(['index', '--include', 'nothing/**', '--json'], repo);
    assert.equal(json.code, 0, json.stderr);
    const summary = JSON.parse(json.stdout) as { files: number; warnings: string[] };
    assert.equal(summary.files, 0);
    assert.equal(summary.warnings.length, 1);
    assert.match(summary.warnings[0], /0 files selected for indexing with include nothing\/\*\*/);
    const warned = json.stderr.split('\n').filter((l) => /warning/.test(l));
    assert.deepEqual(warned, [`ocrag: warning: ${summary.warnings[0]}`]);

    const plain = await runCli(['index', '--include', 'nothing/**'], repo);
    assert.equal(plain.code, 0);
    assert.equal(plain.stderr.split('\n').filter((l) => /warning/.test(l)).length, 1, 'the up-to-date run says it too');

    const normal = await runCli(['index', '--json'], repo);
    assert.equal(normal.code, 0);
    assert.equal('warnings' in JSON.parse(normal.stdout), false);
    assert.doesNotMatch(normal.stderr, /warning/);
  });
});
