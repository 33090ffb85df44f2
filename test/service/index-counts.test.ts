// One meaning of "files" and "chunks" on every surface: `status --json`, `doctor --json`, `list --json`, the panel's
// header (/api/state) and MCP's index_status, its finished task included, give the same numbers for one index
// state of a real repository (real git, the real model, LanceDB on disk). The repository holds what made them
// differ: the same content at two paths (counted per path, as search finds both), an empty file, and an added source.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { committedRepo, runCli, runJson, tempDir } from '../helpers.js';
import { call, startServer, text, until } from '../mcp/mcp-helpers.js';
import { raw, startUi } from '../ui/ui-helpers.js';

const SHARED = 'export function retryWithBackoff(run: () => number, attempts = 3): number {\n  for (let i = 1; ; i++) {\n    try {\n      return run();\n    } catch (e) {\n      if (i >= attempts) throw e;\n    }\n  }\n}\n';

interface Counts {
  files: number;
  chunks: number;
}

describe('file and chunk counts', () => {
  test('status, doctor, list, the panel and index_status agree for the same index', async () => {
    const repo = committedRepo(path.join(tempDir('counts'), 'repo'), {
      'src/retry.ts': SHARED,
      'vendor/retry-copy.ts': SHARED,
      'src/empty.ts': '',
      'src/router.ts': 'export function route(path: string): string {\n  return path.split("/").filter(Boolean).join(" > ");\n}\n',
      'docs/部署.md': '# 部署步骤\n\n先构建，再发布到预发环境，最后切换流量。\n',
      'tools/report.py': 'class Report:\n    def render(self, rows):\n        return "\\n".join(str(r) for r in rows)\n',
    }, 'counts');
    const notes = path.join(path.dirname(repo), 'notes');
    fs.mkdirSync(notes);
    fs.writeFileSync(path.join(notes, 'on-call.md'), '# On-call\n\nAcknowledge the page within five minutes.\n');
    const added = await runCli(['add', notes, '--name', 'notes'], repo);
    assert.equal(added.code, 0, added.stderr);

    // The run through MCP, as an agent starts it: its finished task shows the counts too.
    const client = await startServer(repo);
    let fromMcp: { task: Counts; status: Counts };
    try {
      const { taskId } = (await call(client, 'index_codebase', {})).structuredContent as { taskId: string };
      const task = await until('the task to end', async () => {
        const t = ((await call(client, 'index_status', { task_id: taskId })).structuredContent as { task: { state: string; files: { done: number; total: number }; chunks: number } }).task;
        return ['running', 'cancelling'].includes(t.state) ? null : t;
      }, 120_000);
      assert.equal(task.state, 'done');
      const status = await call(client, 'index_status');
      assert.ok(!status.isError, text(status));
      fromMcp = { task: { files: task.files.total, chunks: task.chunks }, status: (status.structuredContent as { counts: Counts }).counts };
    } finally {
      await client.close();
    }

    const status = await runJson<Counts>(['status', '--json'], repo);
    const doctor = await runJson<{ name: string; counts?: Counts }[]>(['doctor', '--json'], repo);
    const listed = await runJson<{ path: string; chunks: number }[]>(['list', '--json'], repo);
    const ui = await startUi(repo);
    let panel: Counts;
    try {
      panel = JSON.parse((await raw(ui.port, 'GET', '/api/state', { host: `127.0.0.1:${ui.port}`, 'x-ocrag-token': ui.token })).body) as Counts;
    } finally {
      await ui.stop();
    }

    const counts = { files: status.files, chunks: status.chunks };
    // Six files of the commit and the added note; the shared content counts once per path.
    assert.equal(counts.files, 7);
    assert.deepEqual(listed.map((r) => r.path).sort(), ['docs/部署.md', 'notes:on-call.md', 'src/empty.ts', 'src/retry.ts', 'src/router.ts', 'tools/report.py', 'vendor/retry-copy.ts']);
    const byPath = new Map(listed.map((r) => [r.path, r.chunks]));
    assert.equal(byPath.get('src/retry.ts'), byPath.get('vendor/retry-copy.ts'));
    assert.equal(byPath.get('src/empty.ts'), 0);
    // Surfaces that all said 0 would agree too: every file with text has chunks.
    assert.ok([...byPath].every(([p, n]) => p === 'src/empty.ts' || n > 0), JSON.stringify([...byPath]));
    assert.deepEqual({ files: listed.length, chunks: listed.reduce((n, r) => n + r.chunks, 0) }, counts, 'list');
    assert.deepEqual(doctor.find((c) => c.name === 'index')?.counts, counts, 'doctor');
    assert.deepEqual({ files: panel.files, chunks: panel.chunks }, counts, 'panel header');
    assert.deepEqual(fromMcp.status.files === counts.files && fromMcp.status.chunks === counts.chunks, true, `index_status ${JSON.stringify(fromMcp.status)}`);
    assert.deepEqual(fromMcp.task, counts, 'the finished task');
  });
});
