// The verifier's worker thread (verify/aside-worker.ts) with rows remembered for a fork (a read-through's copy, then
// its published search-ready set): a row only its blob's cut can judge is judged when that comes back, and only a
// row that held is remembered. A fork meeting it before then checks it itself (real git, the real chunker and model).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkFile } from '../../src/chunk/index.js';
import { loadEmbedder } from '../../src/embed/index.js';
import { RowVerifier } from '../../src/index/verify/row-verifier.js';
import type { VerifiableRow } from '../../src/index/verify/batch-rows.js';
import { formatBreadcrumb } from '../../src/text/breadcrumb.js';
import { git } from '../helpers.js';
import { AUTH_PY, verifyRepo } from './verify-helpers.js';

const DIM = 512;

async function authRows(blob: string): Promise<VerifiableRow[]> {
  const unit = new Float32Array(DIM);
  unit[0] = 1;
  return (await chunkFile('src/auth.py', AUTH_PY)).map((c, i) => ({ id: `row-${i}`, blob, startLine: c.startLine, endLine: c.endLine, language: c.language, symbol: formatBreadcrumb(c.symbols), text: c.text, vector: unit }));
}

function verifier(repo: string, blob: string): RowVerifier {
  return new RowVerifier({
    root: repo,
    paths: (b) => (b === blob ? ['src/auth.py'] : []),
    maxLineChars: 1000,
    dim: DIM,
    // Every blob cut again on the worker; vectors are not what is tried here.
    sample: () => ({ chunks: true, vectors: false }),
    embedder: () => loadEmbedder('default'),
    remember: true,
    aside: {},
  });
}

test('a row whose breadcrumb only the cut on the worker tells is wrong: refused, and never passed to a fork unchecked', async () => {
  const repo = verifyRepo();
  const blob = git(repo, 'rev-parse', 'HEAD:src/auth.py');
  const rows = await authRows(blob);
  const at = rows.findIndex((r) => r.text.includes('compare_digest'));
  // Words of the blob under another name: past the bound on breadcrumbs, only the blob's cut tells.
  const misnamed = { ...rows[at], symbol: 'class Session > method expired' };
  const owner = verifier(repo, blob);
  try {
    assert.equal(await owner.check(rows.map((r, i) => (i === at ? misnamed : r))), true, 'judged later, by finish');
    // A search set's copy of the row, met before the owner's judgement is in (or after it): checked, not remembered.
    const fork = owner.fork();
    assert.equal(await fork.check([misnamed]), true);
    assert.equal(await fork.finish(), false);
    assert.match(fork.problems[0].what, /has a breadcrumb that is not the one this ocrag's chunker gives lines \d+-\d+/);
    await fork.close();
    assert.equal(await owner.finish(), false);
    assert.match(owner.problems[0].what, /has a breadcrumb that is not the one this ocrag's chunker gives lines \d+-\d+/);
    // Met once the owner's judgement is surely in: still checked, for the owner never remembered it.
    const after = owner.fork();
    assert.equal(await after.check([misnamed]), true);
    assert.equal(await after.finish(), false, 'a row refused on the worker is not remembered');
    await after.close();
  } finally {
    await owner.close();
  }
});

test('rows that held on the worker are remembered: a fork passes the same rows, and refuses one that says otherwise', async () => {
  const repo = verifyRepo();
  const blob = git(repo, 'rev-parse', 'HEAD:src/auth.py');
  const rows = await authRows(blob);
  const owner = verifier(repo, blob);
  try {
    assert.equal(await owner.check(rows), true);
    assert.equal(await owner.finish(), true);
    assert.equal(owner.counts.blobsCut, 1);
    const fork = owner.fork();
    assert.equal(await fork.check(rows), true);
    assert.equal(await fork.finish(), true, 'the rows it accepted pass again');
    assert.equal(fork.counts.blobsCut, 0, 'passed as remembered: the blob is not cut again');
    await fork.close();
    const other = owner.fork();
    const at = rows.findIndex((r) => r.text.includes('compare_digest'));
    assert.equal(await other.check([{ ...rows[at], symbol: 'class Session > method expired' }]), true);
    assert.equal(await other.finish(), false, 'the same id saying otherwise is held to its blob');
    await other.close();
  } finally {
    await owner.close();
  }
});
