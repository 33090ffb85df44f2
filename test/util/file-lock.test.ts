// The one lock of util/file-lock.ts (the index lock, the store's write lock, a model's build lock): owner pid, host
// and heartbeat in one file created whole; stale when its owner is dead on this host or its heartbeat is old.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { test } from 'node:test';
import { acquireLock, tryLock } from '../../src/util/file-lock.js';
import { PROJECT_ROOT, tempDir } from '../helpers.js';

const FILE_LOCK = path.join(PROJECT_ROOT, 'src', 'util', 'file-lock.ts');

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

function setAge(file: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  fs.utimesSync(file, then, then);
}

test('the owner is written whole with its pid and host, and release removes the file', () => {
  const file = path.join(tempDir('lock'), 'x.lock');
  const lock = tryLock(file)!;
  const owner = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(owner.pid, process.pid);
  assert.equal(owner.host, hostname());
  lock.release();
  assert.deepEqual(fs.readdirSync(path.dirname(file)), []);
});

test('a dead owner on this host is taken over at once; on another host only once its heartbeat is old', async () => {
  const file = path.join(tempDir('lock'), 'x.lock');
  const pid = await deadPid();
  fs.writeFileSync(file, JSON.stringify({ pid, host: hostname(), startedAt: Date.now(), nonce: 'a' }));
  const local = tryLock(file, 60_000);
  assert.ok(local, 'the lock of a dead process of this host is taken over');
  local.release();
  fs.writeFileSync(file, JSON.stringify({ pid, host: 'elsewhere.example', startedAt: Date.now(), nonce: 'b' }));
  assert.equal(tryLock(file, 60_000), null, "another host's pid says nothing here: its fresh lock holds");
  setAge(file, 61_000);
  const remote = tryLock(file, 60_000);
  assert.ok(remote, "another host's lock is taken over once nobody touched it for staleMs");
  remote.release();
});

test("an older build's model lock (a folder with owner.json) holds while alive and is taken over when dead", async () => {
  const lock = path.join(tempDir('lock'), 'acme.lock');
  fs.mkdirSync(lock);
  assert.equal(tryLock(lock, 20_000), null, 'a folder whose owner is not written yet is held while fresh');
  fs.writeFileSync(path.join(lock, 'owner.json'), JSON.stringify({ pid: process.pid, host: hostname() }));
  assert.equal(tryLock(lock, 20_000), null, 'a live owner keeps it');
  fs.writeFileSync(path.join(lock, 'owner.json'), JSON.stringify({ pid: await deadPid(), host: hostname() }));
  const taken = tryLock(lock, 20_000);
  assert.ok(taken, 'a dead owner loses it');
  assert.ok(fs.statSync(lock).isFile(), 'and the lock is a file again');
  taken.release();
  assert.equal(fs.existsSync(lock), false);
});

test('the holder beats: its lock stays younger than staleMs however long it is held', async () => {
  const file = path.join(tempDir('lock'), 'x.lock');
  const lock = tryLock(file, 400)!;
  setAge(file, 10_000);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(Date.now() - fs.statSync(file).mtimeMs < 400, 'the heartbeat (every tenth of staleMs) touched it');
  lock.release();
});

test('a live owner in another process is waited for, told once, and the lock is had once it lets go', async () => {
  const file = path.join(tempDir('lock'), 'x.lock');
  const script = `const { tryLock } = await import(${JSON.stringify(FILE_LOCK)});
    const lock = tryLock(${JSON.stringify(file)}); console.log(lock ? 'held' : 'busy');
    setTimeout(() => { lock.release(); console.log('released'); }, 700);`;
  const holder = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => holder.on('close', resolve));
  const lines = readline.createInterface({ input: holder.stdout })[Symbol.asyncIterator]();
  assert.equal((await lines.next()).value, 'held');
  assert.equal(tryLock(file), null, 'another live process holds it');
  let told = 0;
  const lock = await acquireLock(file, { timeoutMs: 30_000, onWait: () => told++ });
  assert.equal((await lines.next()).value, 'released', 'had only after the holder let go');
  assert.equal(told, 1);
  assert.ok(lock);
  lock.release();
  await exited;
});

test('waiting ends without the lock once the caller is satisfied, and times out otherwise', async () => {
  const file = path.join(tempDir('lock'), 'x.lock');
  const held = tryLock(file)!;
  let polls = 0;
  assert.equal(await acquireLock(file, { timeoutMs: 30_000, satisfied: () => ++polls > 2 }), null);
  await assert.rejects(acquireLock(file, { timeoutMs: 150 }), /another ocrag run holds/);
  held.release();
});

test("this process's own lock is never stale, however late its heartbeat: a busy event loop is not a dead holder", () => {
  const file = path.join(tempDir('lock'), 'own.lock');
  const held = tryLock(file, 1_000);
  assert.ok(held);
  setAge(file, 60_000);
  assert.equal(tryLock(file, 1_000), null, 'a second taker in this process waits for the first');
  held.release();
  assert.ok(tryLock(file, 1_000), 'released, it is free');
});
