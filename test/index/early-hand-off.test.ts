// What a fresh clone's first CLI search chunked and embedded for its early answer, handed to the background index
// run it starts (src/index/early/hand-off.ts): real git, model, store and processes. The run takes it (it embeds
// fewer contents) and builds the same index as `ocrag index`; a run killed after taking it loses nothing; a file
// whose bytes are not the ones the search named is never taken.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { writeSyntheticRepo } from '../../fixtures/synthetic-repo.js';
import { openRepo } from '../../src/git/repo.js';
import { takeHandOff, writeHandOff } from '../../src/index/early/hand-off.js';
import { indexLayout } from '../../src/store/layout.js';
import { answersOf, cloneRepo, runCli, runJson, tempDir } from '../helpers.js';
import { seamEnv } from '../support/seams.js';

const QUERIES = ['export the document feed digest', 'parse the request header', 'retry with backoff'];

let origin: string | null = null;
async function syntheticOrigin(): Promise<string> {
  if (origin) return origin;
  origin = path.join(tempDir('hand-off-origin'), 'origin');
  await writeSyntheticRepo(origin, { files: 400 });
  return origin;
}

const handOffs = (repo: string) => (fs.existsSync(path.join(repo, '.ocrag')) ? fs.readdirSync(path.join(repo, '.ocrag')).filter((n) => n.startsWith('early-chunks-')) : []);
/** Resolves once the background run has taken (and removed) the hand-off: it takes the index lock right after. */
async function taken(repo: string): Promise<void> {
  for (const until = Date.now() + 60_000; handOffs(repo).length && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
}
/** Contents the background run embedded, from its line in the log; NaN until it has written one. */
const embeddedByRun = (repo: string) => {
  const log = path.join(repo, '.ocrag', 'log');
  return Number(fs.existsSync(log) ? /remote-first: indexed .* (\d+) chunks embedded/.exec(fs.readFileSync(log, 'utf8'))?.[1] : NaN);
};

test("a first search's background run takes what the early answer embedded, and builds the index `ocrag index` builds", async () => {
  const clone = cloneRepo(await syntheticOrigin(), 'hand-off');
  const plain = cloneRepo(await syntheticOrigin(), 'hand-off-plain');
  const first = await runCli(['search', QUERIES[0]!, '-k', '10', '--json'], clone);
  assert.equal(first.code, 0, first.stderr);
  assert.ok((JSON.parse(first.stdout) as { partial?: unknown }[]).at(-1)!.partial, 'an early answer');
  await taken(clone);
  // Waits for the background run, which holds the lock.
  await runJson(['index'], clone);
  const full = await runJson<{ chunksEmbedded: number }>(['index'], plain);
  assert.ok(embeddedByRun(clone) < full.chunksEmbedded, `the run embedded ${embeddedByRun(clone)} contents, a plain index ${full.chunksEmbedded}`);
  assert.deepEqual(handOffs(clone), [], 'the hand-off is removed once taken');
  assert.deepEqual(await answersOf(clone, QUERIES), await answersOf(plain, QUERIES));
});

test('a background run killed after taking the hand-off loses no index: the next run completes it as `ocrag index` would', async () => {
  const clone = cloneRepo(await syntheticOrigin(), 'hand-off-killed');
  const plain = cloneRepo(await syntheticOrigin(), 'hand-off-killed-plain');
  // The search's environment is its run's: the run dies right after its first durable write.
  const first = await runCli(['search', QUERIES[0]!, '-k', '10', '--json'], clone, seamEnv({ crashAt: 'embed.written', chunksPerWrite: 64 }));
  assert.equal(first.code, 0, first.stderr);
  await taken(clone);
  // Once the killed run's lock is free, this indexes what it left.
  const after = await runJson<{ newBlobs: number }>(['index'], clone);
  const full = await runJson<{ newBlobs: number }>(['index'], plain);
  assert.ok(after.newBlobs > 0 && after.newBlobs < full.newBlobs, `the killed run stored some blobs (${full.newBlobs - after.newBlobs}) and no manifest`);
  assert.deepEqual(handOffs(clone), []);
  assert.deepEqual(await answersOf(clone, QUERIES), await answersOf(plain, QUERIES));
});

test('the run a first search starts finishes alone, with no `ocrag index` after it, and builds what `ocrag index` builds', async () => {
  const clone = cloneRepo(await syntheticOrigin(), 'hand-off-alone');
  const plain = cloneRepo(await syntheticOrigin(), 'hand-off-alone-plain');
  const first = await runCli(['search', QUERIES[1]!, '-k', '10', '--json'], clone);
  assert.equal(first.code, 0, first.stderr);
  // No `ocrag index` here, which would index HEAD itself: the run alone must finish (its line in the log).
  for (const until = Date.now() + 120_000; Number.isNaN(embeddedByRun(clone)) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
  const full = await runJson<{ chunksEmbedded: number }>(['index'], plain);
  assert.ok(embeddedByRun(clone) < full.chunksEmbedded, `the run took the hand-off: it embedded ${embeddedByRun(clone)} contents, a plain index ${full.chunksEmbedded}`);
  assert.deepEqual(handOffs(clone), []);
  assert.deepEqual(await answersOf(clone, QUERIES), await answersOf(plain, QUERIES));
});

test('a hand-off is taken only with the digest the search named, once, and only for the same model, chunker and path', async () => {
  const repo = cloneRepo(await syntheticOrigin(), 'hand-off-unit');
  const layout = indexLayout(await openRepo(repo));
  const identity = { modelId: 'm', dim: 2, chunkerVersion: 'c', maxLineChars: 1000 };
  const chunk = { startLine: 1, endLine: 2, language: 'typescript', symbols: ['function f'], text: 'function f() {\n}' };
  const embedded = {
    rows: [{ id: 'i', blob: 'b1', startLine: 1, endLine: 2, language: 'typescript', symbol: 'function f', text: chunk.text, key: 'k1', vector: new Float32Array([0.5, -0.25]), terms: 'f' }],
    marks: [{ blob: 'b2', reason: 'empty' as const }],
    chunked: [
      { blob: 'b1', path: 'src/f.ts', content: { chunks: [chunk] } },
      { blob: 'b2', path: 'src/e.ts', content: { reason: 'empty' as const } },
    ],
  };
  const digest = writeHandOff(layout, identity, embedded)!;
  assert.match(digest, /^[0-9a-f]{64}$/);
  const file = path.join(layout.dir, `early-chunks-${digest}`);

  // Another digest (a file planted under the right name, or a search's file named wrongly): not taken, removed.
  fs.copyFileSync(file, path.join(layout.dir, `early-chunks-${'0'.repeat(64)}`));
  assert.equal(takeHandOff(layout, '0'.repeat(64)), null);
  // Bytes changed after the search wrote them: not taken, removed.
  const bytes = fs.readFileSync(file);
  bytes[bytes.length - 1]! ^= 1;
  fs.writeFileSync(file, bytes);
  assert.equal(takeHandOff(layout, digest), null);
  assert.deepEqual(handOffs(repo), []);
  // Not a regular file under the digest's name: a link to the search's true file, or a folder, is not taken and
  // stops nothing (the run goes on without it).
  const linked = writeHandOff(layout, identity, embedded)!;
  fs.renameSync(path.join(layout.dir, `early-chunks-${linked}`), path.join(layout.dir, 'elsewhere'));
  fs.symlinkSync(path.join(layout.dir, 'elsewhere'), path.join(layout.dir, `early-chunks-${linked}`));
  assert.equal(takeHandOff(layout, linked), null);
  fs.rmSync(path.join(layout.dir, 'elsewhere'));
  fs.mkdirSync(path.join(layout.dir, `early-chunks-${'1'.repeat(64)}`));
  assert.equal(takeHandOff(layout, '1'.repeat(64)), null);
  fs.rmdirSync(path.join(layout.dir, `early-chunks-${'1'.repeat(64)}`));

  const again = writeHandOff(layout, identity, embedded)!;
  const handed = takeHandOff(layout, again)!;
  assert.ok(handed);
  assert.equal(takeHandOff(layout, again), null, 'taken once');
  assert.deepEqual(handed.chunksOf({ blob: 'b1', path: 'src/f.ts' }), { chunks: [chunk] });
  assert.deepEqual(handed.chunksOf({ blob: 'b2', path: 'src/e.ts' }), { reason: 'empty' });
  assert.equal(handed.chunksOf({ blob: 'b1', path: 'src/f.py' }), undefined, 'chunked as another path: another language');
  assert.deepEqual([...handed.contents.get('k1')!.vector], [0.5, -0.25]);
  assert.equal(handed.contents.get('k1')!.terms, 'f');
  assert.ok(handed.fits(identity));
  assert.ok(!handed.fits({ ...identity, modelId: 'other' }));
  assert.ok(!handed.fits({ ...identity, dim: 3 }));
  assert.ok(!handed.fits({ ...identity, chunkerVersion: 'other' }));
  assert.ok(!handed.fits({ ...identity, maxLineChars: 999 }));

  // A hand-off its run never took goes at the next take once older than ten minutes; a fresh one stays.
  const stale = writeHandOff(layout, identity, embedded)!;
  const fresh = writeHandOff(layout, { ...identity, maxLineChars: 999 }, embedded)!;
  const old = new Date(Date.now() - 11 * 60 * 1000);
  fs.utimesSync(path.join(layout.dir, `early-chunks-${stale}`), old, old);
  assert.equal(takeHandOff(layout, '2'.repeat(64)), null);
  assert.deepEqual(handOffs(repo), [`early-chunks-${fresh}`]);
});
