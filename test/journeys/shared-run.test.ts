// One index run at a time per repository, whoever started it, and every process shows it: a run of the CLI is
// MCP's and the panel's running task (same id, progress moving), and their Index joins it instead of starting a
// second; a run MCP starts in its own process is the panel's too. Real parts: the built CLI and `ocrag mcp` as
// processes held at a phase by a test gate, the MCP SDK client, the panel's HTTP server, git, model and LanceDB.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, startServer, until } from '../mcp/mcp-helpers.js';
import { seamEnv } from '../support/seams.js';
import { openSessionSurfaces, type SessionSurfaces } from '../ui/session-surfaces.js';
import { bigRepo } from '../ui/ui-helpers.js';
import { gate, sandboxEnv, startOcrag } from './rebuild-helpers.js';

interface Task {
  id: string | null;
  state: string;
  kind: string | null;
  percent: number;
  warnings: string[];
}

describe('an index run is every process\'s: shown everywhere, joined rather than doubled', () => {
  let repo: string;
  let gates: string;
  let surfaces: SessionSurfaces;
  let client: Client;
  const panelTask = async (id?: string) => (await surfaces.api(`/api/task${id ? `?id=${id}` : ''}`)) as Task;
  const panelIndex = async () => (await surfaces.api('/api/index', {})) as { id: string; started: boolean; message: string };
  const mcpTask = async (id?: string) => (await call(client, 'index_status', id ? { task_id: id } : {})).structuredContent as { task: Task };

  before(async () => {
    repo = bigRepo(300);
    gates = path.join(path.dirname(repo), 'gates');
    surfaces = await openSessionSurfaces(repo);
    // Opened now: another process's run is read from the index folder the session knows once it is open.
    await surfaces.session.root();
    ({ client } = surfaces);
  });

  after(async () => {
    await surfaces?.close();
  });

  test("the CLI's run is MCP's and the panel's running task; their Index joins it; once it ends, its id still answers", async () => {
    const held = gate(gates, 'embed.written');
    const cli = startOcrag(['index'], repo, seamEnv({ pauseDir: gates }));
    await held.reached();
    const { task } = await mcpTask();
    assert.equal(task.state, 'running');
    assert.equal(task.kind, 'incremental');
    assert.ok(task.percent > 0, `progress is shown: ${task.percent}%`);
    // The CLI's own pid or the one it restarts itself as (cli/arenas.ts): a process other than this test's.
    assert.match(task.warnings.join(' '), /run by another ocrag process \(pid \d+\)/);
    assert.equal((await panelTask()).id, task.id);
    const joined = (await call(client, 'index_codebase', {})).structuredContent as { taskId: string; started: boolean };
    assert.deepEqual([joined.taskId, joined.started], [task.id, false]);
    const fromPanel = await panelIndex();
    assert.deepEqual([fromPanel.id, fromPanel.started], [task.id, false]);
    assert.match(fromPanel.message, /another ocrag process/);
    held.release();
    assert.equal((await cli.ended).code, 0);
    const ended = await until('the run to end', async () => {
      const t = (await mcpTask(task.id!)).task;
      return t.state === 'running' ? null : t;
    });
    assert.equal(ended.state, 'done');
    const status = (await call(client, 'index_status')).structuredContent as { upToDate: boolean };
    assert.equal(status.upToDate, true);
  });

  test('a run MCP starts in its own process is the panel\'s running task, and the panel joins it', async () => {
    const other = await startServer(repo, [], { ...sandboxEnv(repo), ...seamEnv({ pauseDir: gates }) } as Record<string, string>);
    try {
      const held = gate(gates, 'index.listed');
      const started = (await call(other, 'index_codebase', { full: true })).structuredContent as { taskId: string; started: boolean; message: string };
      assert.equal(started.started, true, started.message);
      await held.reached();
      const shown = await panelTask();
      assert.deepEqual([shown.id, shown.state, shown.kind], [started.taskId, 'running', 'full']);
      const fromPanel = await panelIndex();
      assert.deepEqual([fromPanel.id, fromPanel.started], [started.taskId, false]);
      held.release();
      await until('the rebuild to end', async () => {
        const t = (await call(other, 'index_status', { task_id: started.taskId })).structuredContent as { task: Task };
        return t.task.state === 'running' ? null : t.task;
      });
    } finally {
      await other.close();
    }
  });
});
