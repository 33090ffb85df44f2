// The panel and MCP on one session share its index tasks: a run MCP starts is the panel's to follow and cancel,
// by the same id, and one the panel starts is MCP's. Real parts: the MCP SDK client and server (in memory), the
// panel's HTTP server on 127.0.0.1, the real model and LanceDB.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Panel } from '../../src/ui/panel.js';
import { git } from '../helpers.js';
import { until } from '../mcp/mcp-helpers.js';
import { openSessionSurfaces, type SessionSurfaces } from './session-surfaces.js';
import { bigRepo } from './ui-helpers.js';

interface Task {
  id: string | null;
  state: string;
  kind: string | null;
}

describe('the panel and MCP see the same index tasks', () => {
  let surfaces: SessionSurfaces;
  let client: Client;
  let panel: Panel;
  let api: SessionSurfaces['api'];
  let repo: string;
  /** The task as MCP's index_status reports it: the one with this id, else the running or last one. */
  const mcpTask = async (id?: string): Promise<Task> => {
    const r = await client.callTool({ name: 'index_status', arguments: id ? { task_id: id } : {} });
    return (r.structuredContent as { task: Task }).task;
  };

  before(async () => {
    // The panel shows the session MCP answers for, as a server that started a panel would.
    repo = bigRepo(600);
    surfaces = await openSessionSurfaces(repo);
    ({ client, panel, api } = surfaces);
  });
  after(async () => {
    await surfaces?.close();
  });

  test('a run MCP started is the panel’s task, and the panel’s Cancel stops it for MCP', async () => {
    const started = await client.callTool({ name: 'index_codebase', arguments: {} });
    const { taskId } = started.structuredContent as { taskId: string; started: boolean };
    assert.equal((started.structuredContent as { started: boolean }).started, true);
    const fromMcp = await mcpTask(taskId);
    assert.match(fromMcp.id ?? '', /^[0-9a-f]{12}$/);
    const fromPanel = (await api('/api/task')) as Task;
    assert.equal(fromPanel.id, fromMcp.id);
    const cancel = (await api('/api/cancel', { id: fromMcp.id })) as { cancelled: boolean };
    assert.equal(cancel.cancelled, true);
    const ended = await until('MCP sees the cancelled task', async () => {
      const t = await mcpTask(taskId);
      return t.state === 'cancelled' ? t : null;
    });
    assert.equal(ended.id, fromMcp.id);
  });

  test('a run the panel started is the one MCP reports, by its id, to the end', async () => {
    const start = (await api('/api/index', {})) as { id: string; started: boolean };
    assert.equal(start.started, true);
    const again = (await api('/api/index', {})) as { id: string; started: boolean; message: string };
    assert.deepEqual([again.started, again.id], [false, start.id], 'a second press finds the running task');
    const done = await until('MCP sees the panel’s task end', async () => {
      const t = await mcpTask(start.id);
      return t.state === 'done' ? t : null;
    }, 180_000);
    assert.equal(done.id, start.id);
    const state = (await api('/api/state')) as { upToDate: boolean; task: Task };
    assert.equal(state.upToDate, true);
    assert.equal(state.task.id, start.id);
  });

  test('the state says when the index is behind HEAD and the work tree is dirty', async () => {
    fs.writeFileSync(path.join(repo, 'src', 'later.ts'), 'export const later = 1;\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'later');
    fs.appendFileSync(path.join(repo, 'src', 'retry.ts'), '// edited\n');
    const state = (await api('/api/state')) as { upToDate: boolean; head: string; indexedCommit: string; uncommittedChanges: number };
    assert.equal(state.upToDate, false);
    assert.equal(state.head, git(repo, 'rev-parse', 'HEAD'));
    assert.equal(state.indexedCommit, git(repo, 'rev-parse', 'HEAD~1'));
    assert.equal(state.uncommittedChanges, 1);
  });

  test('Rebuild starts a full run, which MCP reports as such, and Cancel of an unknown task id is 404 and stops nothing', async () => {
    const rebuild = (await api('/api/rebuild', {})) as { id: string; started: boolean; task: Task };
    assert.deepEqual([rebuild.started, rebuild.task.kind], [true, 'full']);
    assert.equal((await mcpTask()).kind, 'full');
    const stale = await fetch(new URL('/api/cancel', panel.url), {
      method: 'POST',
      headers: { 'x-ocrag-token': panel.token, 'content-type': 'application/json' },
      body: JSON.stringify({ id: '000000000000' }),
    });
    assert.equal(stale.status, 404);
    assert.match(((await stale.json()) as { error: string }).error, /^no index task "000000000000"/);
    assert.equal((await mcpTask()).state, 'running');
    const cancel = (await api('/api/cancel', { id: rebuild.id })) as { cancelled: boolean };
    assert.equal(cancel.cancelled, true);
    await until('the rebuild stops', async () => ((await mcpTask()).state === 'cancelled' ? true : null));
  });
});
