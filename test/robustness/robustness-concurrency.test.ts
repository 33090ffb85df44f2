// Processes sharing one index: two embedding the same blob at the same moment (an index run and a search's
// working-tree overlay, or two MCP servers' overlays) store its chunks and their contents once (LanceDB's
// merge-insert alone lets both append); the index lock is taken over only from the dead; LanceDB gets a CPU pool
// it can't deadlock.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { test } from 'node:test';
import { storeLocation } from '../../src/store/layout.js';
import { openStore } from '../../src/store/open-store.js';
import { tryLock } from '../../src/util/file-lock.js';
import { PROJECT_ROOT, storedChunks, tempDir } from '../helpers.js';
import { sharedRows } from './robustness-helpers.js';

const ROUNDS = 6;

test(`concurrent writers of the same chunks never store one twice (${ROUNDS} races)`, async () => {
  const writer = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'test', 'robustness', 'robustness-writer.ts')], { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = readline.createInterface({ input: writer.stdout })[Symbol.asyncIterator]();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const dir = tempDir('race');
      const store = await openStore(storeLocation(dir), 4);
      await store.addChunks([{ ...sharedRows()[0], id: 'd'.repeat(40), blob: 'b'.repeat(40) }], false);
      const at = Date.now() + 400;
      writer.stdin.write(`${dir} ${at}\n`);
      const mine = await openStore(storeLocation(dir), 4);
      await new Promise((resolve) => setTimeout(resolve, at - Date.now()));
      await mine.addChunks(sharedRows(), true);
      assert.equal((await answers.next()).value, 'done');
      const after = await openStore(storeLocation(dir), 4);
      const ids = (await storedChunks(after)).map((c) => c.id);
      assert.equal(ids.length, new Set(ids).size, `round ${round}: ${ids.length} rows, ${new Set(ids).size} ids`);
      assert.equal(ids.length, 101);
      assert.equal(await after.countContents(), 100, `round ${round}: the seed shares its content with the first row`);
      for (const s of [store, mine, after]) s.close();
    }
  } finally {
    writer.stdin.end();
  }
});

test('index lock: a dead holder or an untouched file is taken over, a live holder is not, release removes only its own', async () => {
  const file = path.join(tempDir('lock'), 'index.lock');
  const dead = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => dead.on('close', resolve));
  fs.writeFileSync(file, JSON.stringify({ pid: dead.pid, startedAt: Date.now() }));
  const taken = tryLock(file);
  assert.ok(taken, 'the lock of a dead process is taken over');
  assert.equal(tryLock(file), null, 'a live holder (this process) keeps it');
  fs.writeFileSync(file, '');
  assert.equal(tryLock(file), null, 'a fresh lock being written is not stale');
  const old = new Date(Date.now() - 11 * 60_000);
  fs.writeFileSync(file, JSON.stringify({ pid: process.pid, startedAt: old.getTime() }));
  fs.utimesSync(file, old, old);
  const reclaimed = tryLock(file);
  assert.ok(reclaimed, 'a lock nobody touched for 10 minutes is stale even if its pid lives (reused)');
  taken.release();
  assert.ok(fs.existsSync(file), "releasing an old handle leaves the new holder's lock alone");
  reclaimed.release();
  assert.equal(fs.existsSync(file), false);
  assert.deepEqual(fs.readdirSync(path.dirname(file)), [], 'no temporary files left behind');
});

test("LanceDB's CPU pool gets at least 2 threads (with 1, its full-text index build deadlocks on 2-core machines)", async () => {
  // Set by src/store/lance/lance-env.ts when the LanceDB store loads, before the native module.
  await import('../../src/store/lance/lance-store.js');
  assert.ok(Number(process.env.LANCE_CPU_THREADS) >= 2, `LANCE_CPU_THREADS=${process.env.LANCE_CPU_THREADS}`);
});
