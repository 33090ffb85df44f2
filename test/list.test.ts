// `ocrag list` shows what search sees: the checked-out commit plus edited and untracked files, each with its state.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { runCli, runJson, twoLanguageRepo } from './helpers.js';

interface Row {
  path: string;
  blob: string;
  chunks: number;
  state: string;
}

test('list names edited and untracked files as search sees them, and --committed-only the commit alone', async () => {
  const repo = twoLanguageRepo();
  await runJson(['index'], repo);
  fs.writeFileSync(path.join(repo, 'tools', 'notes.py'), 'def rotate_logs(days):\n    """Keeps the last days of logs."""\n    return days\n');
  fs.appendFileSync(path.join(repo, 'src', 'router.ts'), 'export const ROOT = "/";\n');
  const rows = await runJson<Row[]>(['list'], repo);
  const state = Object.fromEntries(rows.map((r) => [r.path, r.state]));
  assert.deepEqual(state, { 'src/cache.ts': 'committed', 'src/router.ts': 'modified', 'tools/backup.py': 'committed', 'tools/notes.py': 'untracked', 'tools/report.py': 'committed' });
  assert.ok(rows.every((r) => r.chunks > 0), 'the new content was embedded, as a search would');
  const [hit] = await runJson<{ path: string }[]>(['search', 'keep the last days of logs', '-k', '1'], repo);
  assert.equal(hit.path, 'tools/notes.py', 'search and list agree');
  const committed = await runJson<Row[]>(['list', '--committed-only'], repo);
  assert.deepEqual(committed.map((r) => [r.path, r.state]), [['src/cache.ts', 'committed'], ['src/router.ts', 'committed'], ['tools/backup.py', 'committed'], ['tools/report.py', 'committed']]);
  const text = await runCli(['list', 'tools/**'], repo);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /tools\/notes\.py {2}\(untracked\)\n/);
});
