// A user asks `ocrag doctor --verify` whether the index still says what the repository holds: yes on a fresh
// index; no, naming the chunk, once a text or a vector was rewritten in LanceDB (the built CLI, real LanceDB, the
// real model); yes again after the rebuild it says to run.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { runCli, runJson } from '../helpers.js';
import { indexState, INJECTED, rewriteContent, vectorOf, verifyRepo } from '../security/verify-helpers.js';

interface Verification {
  name: string;
  status: string;
  detail: string;
  fix?: string;
  counts: { blobs: number; chunks: number; marks: number; blobsCut: number; contentsEmbedded: number };
  problemCount: number;
  problems: string[];
}

async function verification(repo: string): Promise<{ code: number; verify: Verification }> {
  const r = await runCli(['doctor', '--verify', '--json'], repo);
  const checks = JSON.parse(r.stdout) as Verification[];
  return { code: r.code, verify: checks.find((c) => c.name === 'verify')! };
}

describe('doctor --verify holds the local index to git', () => {
  let repo: string;
  let tables: string;

  before(async () => {
    repo = verifyRepo();
    tables = path.join(repo, '.ocrag', 'lance');
    await runJson(['index'], repo);
  });

  test('a fresh index holds: every chunk cut and embedded again, exit 0', async () => {
    const { code, verify } = await verification(repo);
    assert.equal(code, 0, verify.detail);
    assert.equal(verify.status, 'ok', verify.detail);
    const { chunks } = await indexState(repo);
    assert.equal(verify.counts.chunks, chunks);
    assert.equal(verify.counts.blobsCut, verify.counts.blobs - verify.counts.marks);
    assert.ok(verify.counts.contentsEmbedded > 0 && verify.counts.marks === 2, JSON.stringify(verify.counts));
    assert.equal(verify.problemCount, 0);
  });

  test('a chunk text rewritten in LanceDB (its content key made to match): exit 4, the chunk named, the fix given', async () => {
    await rewriteContent(tables, 'compare_digest', (r) => ({ text: r.text.replace('return hmac.compare_digest(stored_hash, given_hash)', `# ${INJECTED}\n    return True`) }));
    const r = await runCli(['doctor', '--verify'], repo);
    assert.equal(r.code, 4, r.stdout + r.stderr);
    assert.match(r.stdout, /^FAIL {2}verify +1 of what the index holds for [0-9a-f]{8} is not what git holds: src\/auth\.py:4-6 \(blob [0-9a-f]{12}\) has a text that is not lines 4-6 of its blob$/m);
    assert.match(r.stdout, /fix: run "ocrag index --rebuild"/);
  });

  test("a vector rewritten in LanceDB to another chunk's: exit 4", async () => {
    const other = await vectorOf(tables, 'LruCache');
    await rewriteContent(tables, 'self.user.deadline', () => ({ vector: other }));
    const { code, verify } = await verification(repo);
    assert.equal(code, 4);
    assert.equal(verify.problemCount, 2, verify.problems.join('\n'));
    assert.ok(verify.problems.some((p) => /^src\/auth\.py:\d+-\d+ \(blob [0-9a-f]{12}\) has a vector that is not this model's embedding of its text \(cosine -?0\.\d+\)$/.test(p)), verify.problems.join('\n'));
  });

  test('after the rebuild it names, the index holds again', async () => {
    await runJson(['index', '--rebuild'], repo);
    const { code, verify } = await verification(repo);
    assert.equal(code, 0, verify.detail);
    assert.equal(verify.status, 'ok');
  });
});
