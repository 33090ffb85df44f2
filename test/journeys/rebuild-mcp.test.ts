// An agent's full rebuild through the real MCP client: index_codebase {full: true}, then index_cancel at each
// phase (listing, embedding, the search-index build, just before the swap), the run held there by a test gate so
// the cancel lands exactly at it. While the rebuild runs, search_code and the CLI answer from the previous index;
// after each cancel the answers are byte-identical, index_status shows the index, no build folder is left and
// nothing outside the repository changed. The panel's Rebuild and Cancel too (`ocrag ui`, its HTTP API). The
// built CLI as the servers, real git, model and LanceDB.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { git, makeFixtureRepo } from '../helpers.js';
import { call, startServer, text, until } from '../mcp/mcp-helpers.js';
import { seamEnv } from '../support/seams.js';
import { answers, assertTidy, gate, ocrag, outside, QUERY, sandboxEnv, startOcrag } from './rebuild-helpers.js';

interface Task {
  state: string;
  phase: string | null;
}

describe('index_codebase {full: true} cancelled over MCP at every phase', () => {
  let repo: string;
  let gates: string;
  let client: Client;
  let previous: string;
  let previousCli: string;
  let untouched: string[];

  const searchCode = async () => {
    const r = await call(client, 'search_code', { query: QUERY, k: 3 });
    assert.ok(!r.isError, text(r));
    return JSON.stringify((r.structuredContent as { results: unknown[] }).results);
  };
  const taskOf = async (id: string) => (await call(client, 'index_status', { task_id: id })).structuredContent as { task: Task };

  before(async () => {
    repo = makeFixtureRepo();
    gates = path.join(path.dirname(repo), 'gates');
    const indexed = await ocrag(['index'], repo);
    assert.equal(indexed.code, 0, indexed.stderr);
    previousCli = await answers(repo);
    client = await startServer(repo, [], { ...sandboxEnv(repo), ...seamEnv({ pauseDir: gates }) } as Record<string, string>);
    previous = await searchCode();
    untouched = outside(repo).filter((e) => !e.startsWith('gates'));
  });

  after(async () => {
    await client?.close();
  });

  for (const [phase, point] of [
    ['listing', 'index.listed'],
    ['embedding', 'embed.written'],
    ['the search-index build', 'index.text-index'],
    ['just before the swap', 'rebuild.built'],
  ]) {
    test(`cancelled at ${phase} (${point}): the previous index answers, byte-identical`, async () => {
      const held = gate(gates, point);
      const started = await call(client, 'index_codebase', { full: true });
      assert.ok(!started.isError, text(started));
      const { taskId } = started.structuredContent as { taskId: string };
      await held.reached();
      if (point === 'rebuild.built') {
        // The new index is complete beside the old one: until the swap, every surface answers from the old.
        assert.equal(await searchCode(), previous, 'search_code answers from the previous index while the rebuild runs');
        assert.equal(await answers(repo), previousCli, 'so does the CLI');
      }
      const cancel = await call(client, 'index_cancel', { task_id: taskId });
      assert.equal((cancel.structuredContent as { cancelled: boolean }).cancelled, true);
      held.release();
      const ended = await until('the cancelled rebuild to stop', async () => {
        const { task } = await taskOf(taskId);
        return ['running', 'cancelling'].includes(task.state) ? null : task;
      });
      assert.equal(ended.state, 'cancelled');
      assert.equal(await searchCode(), previous);
      const status = (await call(client, 'index_status')).structuredContent as { upToDate: boolean; indexedCommit: string | null };
      assert.deepEqual([status.indexedCommit, status.upToDate], [git(repo, 'rev-parse', 'HEAD'), true]);
      assertTidy(repo);
      assert.deepEqual(outside(repo).filter((e) => !e.startsWith('gates')), untouched);
    });
  }

  test("the panel's Rebuild, then Cancel during the search-index build: the panel's search answers as before", async () => {
    const ui = startOcrag(['ui', '--no-open', '--json', '--port', '0'], repo, seamEnv({ pauseDir: gates }));
    let printed = '';
    ui.child.stdout!.on('data', (b) => (printed += b));
    try {
      const { url, token } = await until('the panel to listen', async () => (/\}\s*$/.test(printed) ? (JSON.parse(printed) as { url: string; token: string }) : null));
      const api = async (route: string, body?: unknown) => {
        const res = await fetch(new URL(route, url), {
          method: body === undefined ? 'GET' : 'POST',
          headers: { 'x-ocrag-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        assert.equal(res.status, 200, route);
        return res.json() as Promise<Record<string, unknown>>;
      };
      const panelResults = async () => JSON.stringify((await api(`/api/search?q=${encodeURIComponent(QUERY)}&k=3`)).results);
      const before = await panelResults();
      const held = gate(gates, 'index.text-index');
      const { id } = (await api('/api/rebuild', {})) as { id: string };
      await held.reached();
      assert.equal(await panelResults(), before, 'the panel answers from the previous index while the rebuild runs');
      assert.equal(((await api('/api/cancel', { id })) as { cancelled: boolean }).cancelled, true);
      held.release();
      await until('the rebuild to stop', async () => (((await api(`/api/task?id=${id}`)) as { state: string }).state === 'cancelled' ? true : null));
      assert.equal(await panelResults(), before);
      assertTidy(repo);
    } finally {
      ui.child.kill('SIGINT');
      await ui.ended;
    }
  });

  test('a rebuild by another process (the CLI) under the running server: search_code answers from the swapped-in index', async () => {
    const rebuilt = await ocrag(['index', '--rebuild'], repo);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.equal(await searchCode(), previous);
  });

  test('a full rebuild left to finish swaps in an index that answers the same', async () => {
    const { taskId } = (await call(client, 'index_codebase', { full: true })).structuredContent as { taskId: string };
    const ended = await until('the rebuild to finish', async () => {
      const { task } = await taskOf(taskId);
      return ['running', 'cancelling'].includes(task.state) ? null : task;
    });
    assert.equal(ended.state, 'done');
    assert.equal(await searchCode(), previous);
    assert.equal(fs.readdirSync(path.join(repo, '.ocrag', 'manifests')).length, 1);
    assertTidy(repo);
  });
});
