// index_codebase / index_status / index_cancel as code-rag's clients use them, over stdio with the SDK's client,
// on a generated 1,000-file repository indexed by the real model into LanceDB on disk.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { syntheticFiles, writeSyntheticRepo } from '../../fixtures/synthetic-repo.js';
import { git, tempDir } from '../helpers.js';
import { call, search, startServer, text, until } from './mcp-helpers.js';

interface Task {
  id: string;
  root: string;
  state: string;
  phase: string | null;
  percent: number;
  files: { done: number; total: number };
  chunks: number;
  chunksPerSecond: number | null;
  errors: string[];
  warnings: string[];
}

const POLL_MS = 250;

describe('index tasks over MCP on a 1,000-file repository', () => {
  let repo: string;
  let client: Client;

  before(async () => {
    repo = path.join(tempDir('tasks'), 'thousand');
    await writeSyntheticRepo(repo, { files: 1000 });
    client = await startServer(repo);
    // Warm: the model is loaded, as it is for an agent's second call.
    await call(client, 'index_status');
  });

  after(async () => {
    await client?.close();
  });

  const taskStatus = async (id: string): Promise<Task> => {
    const r = await call(client, 'index_status', { task_id: id });
    assert.ok(!r.isError, text(r));
    return (r.structuredContent as { task: Task }).task;
  };

  test('index_codebase answers at once with a task id; polling index_status every 250 ms sees progress move smoothly', async () => {
    const asked = performance.now();
    const r = await call(client, 'index_codebase', {});
    const answeredMs = performance.now() - asked;
    assert.ok(!r.isError, text(r));
    const { taskId, started, task } = r.structuredContent as { taskId: string; started: boolean; task: Task };
    assert.match(taskId, /^[0-9a-f]{12}$/);
    assert.equal(started, true);
    assert.equal(task.state, 'running', `the run goes on after the answer (${Math.round(answeredMs)} ms)`);
    console.log(`# index_codebase answered in ${Math.round(answeredMs)} ms`);
    // 200 ms is the goal (about 70 ms measured on an idle machine); the bound is generous for a loaded one.
    assert.ok(answeredMs < 2000, `answered in ${Math.round(answeredMs)} ms`);

    const again = (await call(client, 'index_codebase', {})).structuredContent as { taskId: string; started: boolean; message: string };
    assert.deepEqual([again.taskId, again.started], [taskId, false], 'one run at a time: the running task is handed back');
    assert.match(again.message, /already running/);

    const seen: Task[] = [];
    for (;;) {
      const t = await taskStatus(taskId);
      seen.push(t);
      if (!['running', 'cancelling'].includes(t.state)) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const last = seen.at(-1)!;
    assert.equal(last.state, 'done', JSON.stringify(last));
    assert.deepEqual([last.percent, last.files.done, last.files.total, last.errors, last.warnings], [100, 1000, 1000, [], []]);
    const percents = [...new Set(seen.map((t) => t.percent))];
    console.log(`# ${seen.length} polls, percents ${percents.join(' ')}; phases ${[...new Set(seen.map((t) => t.phase))].join(' ')}`);
    assert.ok(percents.length >= 10, `${percents.length} distinct progress values: ${percents.join(', ')}`);
    assert.deepEqual(percents, [...percents].sort((a, b) => a - b), 'progress never goes back');
    for (let i = 1; i < seen.length; i++) {
      assert.ok(seen[i].files.done >= seen[i - 1].files.done && seen[i].chunks >= seen[i - 1].chunks, 'stored counts never go back');
    }
    assert.ok(seen.some((t) => t.state === 'running' && (t.chunksPerSecond ?? 0) > 0), 'chunks/s is reported while running');
    assert.ok(seen.some((t) => t.state === 'running' && t.phase !== null), 'the phase is named');
  });

  test('index_cancel stops a run by task id; the index from before stays searchable', async () => {
    const query = 'validate the webhook signature';
    const before = await search(client, query, { k: 3 });
    assert.ok(before.length > 0);
    // A branch with 1,000 more files: its run has minutes of work on a loaded machine, seconds on an idle one.
    git(repo, 'checkout', '-q', '-b', 'more');
    for (const f of syntheticFiles(1000, 2, 'more')) {
      fs.mkdirSync(path.dirname(path.join(repo, f.path)), { recursive: true });
      fs.writeFileSync(path.join(repo, f.path), f.content);
    }
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'more files');
    const { taskId } = (await call(client, 'index_codebase', {})).structuredContent as { taskId: string };
    await until('the run to store something', async () => ((await taskStatus(taskId)).files.done > 0 ? true : null), 120_000);
    const wrong = await call(client, 'index_cancel', { task_id: '0123456789ab' });
    assert.equal(wrong.isError, true);
    assert.match(text(wrong), /no index task 0123456789ab/);
    const cancel = (await call(client, 'index_cancel', { task_id: taskId })).structuredContent as { cancelled: boolean; taskId: string };
    assert.deepEqual([cancel.cancelled, cancel.taskId], [true, taskId]);
    const stopped = await until('the cancelled run to stop', async () => {
      const t = await taskStatus(taskId);
      return ['running', 'cancelling'].includes(t.state) ? null : t;
    });
    assert.equal(stopped.state, 'cancelled');
    assert.ok(stopped.files.done > 0 && stopped.files.done < stopped.files.total, `stopped part way: ${stopped.files.done}/${stopped.files.total} files`);
    const again = (await call(client, 'index_cancel', { task_id: taskId })).structuredContent as { cancelled: boolean; message: string };
    assert.equal(again.cancelled, false);
    assert.match(again.message, /not running \(cancelled\)/);

    git(repo, 'checkout', '-q', 'main');
    const status = (await call(client, 'index_status')).structuredContent as { upToDate: boolean; counts: { files: number } };
    assert.deepEqual([status.upToDate, status.counts.files], [true, 1000], 'main keeps its index');
    const after = await search(client, query, { k: 3 });
    assert.deepEqual(after.map((r) => r.path), before.map((r) => r.path), 'the index from before answers');
  });

  test('a task id must look like one', async () => {
    const r = await call(client, 'index_status', { task_id: 'nope' });
    assert.equal(r.isError, true);
    assert.match(text(r), /12 hex digits/);
  });
});
