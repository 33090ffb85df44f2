// An artifact carries the chunker versions it was made with: it imports where every language it holds chunks of is
// chunked the same, and is refused, in one line, where one of them is not.
import assert from 'node:assert/strict';
import { chunkerVersion } from '../../src/chunk/version.js';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { cloneRepo, runCli, runJson, tempDir, twoLanguageRepo } from '../helpers.js';
import { seamEnv } from '../support/seams.js';

interface Header {
  header: { chunkerVersion: string };
}

describe('artifacts and per-language chunker versions', () => {
  let origin: string;
  let artifact: string;
  before(async () => {
    origin = twoLanguageRepo();
    await runJson(['index'], origin);
    artifact = path.join(tempDir('artifact'), 'index.tar');
    await runJson(['export', '--out', artifact], origin);
    const check = await runJson<Header>(['export', '--check', artifact], origin);
    assert.equal(check.header.chunkerVersion, chunkerVersion(), 'the header records the whole table');
  });

  test('imports where only a language it holds no chunks of is chunked otherwise', async () => {
    const b = cloneRepo(origin, 'b');
    const env = seamEnv({ chunkerRevisions: { rust: 3 } });
    const imported = await runJson<{ chunksAdded: number }>(['import', artifact], b, env);
    assert.ok(imported.chunksAdded > 0);
    const run = await runJson<{ newBlobs: number }>(['index'], b, env);
    assert.equal(run.newBlobs, 0, 'every chunk came with the artifact');
  });

  test('is refused where a language it holds chunks of is chunked otherwise', async () => {
    const c = cloneRepo(origin, 'c');
    const python3 = seamEnv({ chunkerRevisions: { python: 3 } });
    const r = await runCli(['import', artifact], c, python3);
    assert.equal(r.code, 4);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /artifact holds "python" chunks of chunker version "1\+python\.2" but this ocrag chunks them with version 1\+python\.3: export it again with this ocrag version/);
    const status = await runJson<{ indexed: unknown; chunksStored: number }>(['status'], c, python3);
    assert.deepEqual([status.indexed, status.chunksStored], [null, 0], 'nothing was imported');
  });
});
