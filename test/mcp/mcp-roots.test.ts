// One server, several repositories: set_root switches which one calls answer for, `root` asks another once, each
// keeps its own index and tasks; and a run that selects no file says so in the task and the tool's reply.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { makeFixtureRepo, runJson, tempDir, twoLanguageRepo } from '../helpers.js';
import { call, search, startServer, text, until } from './mcp-helpers.js';
import { seamEnv } from '../support/seams.js';

describe('set_root: one MCP server serving two repositories', () => {
  let a: string;
  let b: string;
  let client: Client;

  before(async () => {
    a = makeFixtureRepo();
    b = twoLanguageRepo();
    await runJson(['index'], a);
    client = await startServer(a);
  });

  after(async () => {
    await client?.close();
  });

  test('after set_root to B, searches answer from B only; A is still reachable by root and by its task ids', async () => {
    const inA = await search(client, 'parse command line arguments', { k: 3 });
    assert.equal(inA[0].path, 'src/cli/args.ts');
    const taskA = (await call(client, 'index_codebase', {})).structuredContent as { taskId: string; task: { root: string } };
    assert.equal(fs.realpathSync(taskA.task.root), fs.realpathSync(a));

    const set = await call(client, 'set_root', { path: b });
    assert.ok(!set.isError, text(set));
    assert.equal((set.structuredContent as { root: string }).root, fs.realpathSync(b));
    // B was never indexed: its first search indexes it (its own store, under B).
    // min_score 0: B has no argument parser, and the test wants to see that whatever comes back is B's.
    const inB = await search(client, 'parse command line arguments', { k: 10, min_score: 0 });
    assert.ok(inB.length > 0);
    const bFiles = new Set(['src/cache.ts', 'src/router.ts', 'tools/backup.py', 'tools/report.py']);
    assert.ok(inB.every((r) => bFiles.has(r.path)), `B's files only: ${inB.map((r) => r.path).join(', ')}`);
    assert.equal((await search(client, 'copy the database to a dated backup', { k: 1 }))[0].path, 'tools/backup.py');
    assert.ok(fs.existsSync(path.join(b, '.ocrag')), 'B has an index of its own');
    const status = (await call(client, 'index_status')).structuredContent as { root: string; counts: { files: number } };
    assert.deepEqual([status.root, status.counts.files], [fs.realpathSync(b), 4]);

    const stillA = await search(client, 'parse command line arguments', { k: 3, root: a });
    assert.equal(stillA[0].path, 'src/cli/args.ts', 'root asks A once');
    assert.ok((await search(client, 'parse command line arguments', { k: 10, min_score: 0 })).every((r) => bFiles.has(r.path)), 'and does not switch');
    const oldTask = await until('A\'s task to end', async () => {
      const t = ((await call(client, 'index_status', { task_id: taskA.taskId })).structuredContent as { task: { state: string; root: string } }).task;
      return t.state === 'running' ? null : t;
    });
    assert.deepEqual([oldTask.state, fs.realpathSync(oldTask.root)], ['done', fs.realpathSync(a)], 'A\'s task answers, naming its root');
  });

  test('set_root refuses what is not a repository, in one line, and keeps serving the one before', async () => {
    const plain = tempDir('plain');
    for (const [where, message] of [
      [plain, /is not a git repository nor a folder indexed by ocrag/],
      [path.join(plain, 'missing'), /does not exist/],
    ] as const) {
      const r = await call(client, 'set_root', { path: where });
      assert.equal(r.isError, true);
      assert.match(text(r), message);
      assert.equal(text(r).split('\n').length, 1);
    }
    const r = await call(client, 'search_code', { query: 'anything', root: plain });
    assert.equal(r.isError, true, 'root is checked the same way');
    assert.equal(((await call(client, 'index_status')).structuredContent as { root: string }).root, fs.realpathSync(b));
  });

  test('set_root takes root, the name every other tool gives the repository, as well as path; two different ones or none are refused', async () => {
    const served = async () => ((await call(client, 'index_status')).structuredContent as { root: string }).root;
    assert.equal(await served(), fs.realpathSync(b));
    const byRoot = await call(client, 'set_root', { root: a });
    assert.ok(!byRoot.isError, text(byRoot));
    assert.equal((byRoot.structuredContent as { root: string }).root, fs.realpathSync(a));
    assert.equal(await served(), fs.realpathSync(a), 'switched');
    assert.equal((await search(client, 'parse command line arguments', { k: 1 }))[0].path, 'src/cli/args.ts');
    const same = await call(client, 'set_root', { root: b, path: `${b}/` });
    assert.ok(!same.isError, text(same));
    assert.equal(await served(), fs.realpathSync(b));
    for (const [args, message] of [
      [{ root: a, path: b }, /^set_root got path ".+" and root ".+": give one repository, as path or as root$/],
      [{}, /^set_root needs the repository to switch to: give its path as root \(or path\)$/],
    ] as const) {
      const r = await call(client, 'set_root', args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(text(r), message);
    }
    assert.equal(await served(), fs.realpathSync(b), 'a refused call switches nothing');
  });
});

describe('an index run that selects no file', () => {
  test('says so as a warning in the task, in index_codebase\'s and index_status\'s replies', async () => {
    const repo = makeFixtureRepo();
    // The reply waits FIRST_LOOK_MS (60 ms) for a run that ends at once: on a loaded machine the run may take longer.
    const client = await startServer(repo, ['--include', 'nothing/**'], seamEnv({ firstLookMs: 10_000 }) as Record<string, string>);
    try {
      const started = await call(client, 'index_codebase', {});
      const { taskId } = started.structuredContent as { taskId: string };
      const task = await until('the run to end', async () => {
        const t = ((await call(client, 'index_status', { task_id: taskId })).structuredContent as { task: { state: string; warnings: string[] } }).task;
        return t.state === 'running' ? null : t;
      });
      assert.equal(task.state, 'done');
      assert.equal(task.warnings.length, 1);
      assert.match(task.warnings[0], /^0 files selected for indexing with include nothing\/\*\*/);
      const status = await call(client, 'index_status');
      assert.match(text(status), /warning: 0 files selected/);
      const again = await call(client, 'index_codebase', {});
      assert.match(text(again), /warning: 0 files selected/, 'a run that ends at once says so in its reply');
    } finally {
      await client.close();
    }
  });
});
