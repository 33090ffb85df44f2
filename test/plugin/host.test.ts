// `ocrag plugin-host` as an editor plugin (or anything that can write to its stdin) drives it: every line gets
// one reply, in order, and a bad line (not JSON, no tool, a tool that does not exist, a folder that is no
// workspace) is a one-line error reply; the host goes on answering. The built CLI, a real repository and model.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { CLI, TEST_CACHE, tempDir, twoLanguageRepo } from '../helpers.js';

test('a hostile or mistaken call is answered with an error line and the host keeps answering', async () => {
  const repo = twoLanguageRepo();
  const calls = [
    'not json',
    JSON.stringify({ id: 2, tool: 'rm -rf /', root: '/', cwd: '/' }),
    JSON.stringify({ id: 3, root: repo, cwd: repo }),
    JSON.stringify({ id: 4, tool: 'search_code', root: tempDir('nothing'), cwd: tempDir('nothing'), args: { query: 'backup' } }),
    JSON.stringify({ id: 5, tool: 'search_code', root: repo, cwd: repo, args: { query: 'copy the database file to a dated backup', k: 1, format: 'json' } }),
    // Arguments the plugin's schema would refuse, sent by another client: the same schema refuses them here.
    JSON.stringify({ id: 6, tool: 'search_code', root: repo, cwd: repo, args: { query: 'backup', k: 1_000_000 } }),
    JSON.stringify({ id: 7, tool: 'toString', root: repo, cwd: repo, args: {} }),
  ];
  const host = spawn(process.execPath, [CLI, 'plugin-host'], { env: { ...process.env, OCRAG_CACHE: TEST_CACHE, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  host.stdout.on('data', (b) => (out += b));
  host.stdin.end(calls.join('\n') + '\n');
  const code = await new Promise((resolve) => host.on('close', resolve));
  assert.equal(code, 0);
  const replies = out.trim().split('\n').map((l) => JSON.parse(l) as { id: unknown; text?: string; error?: string });
  assert.deepEqual(replies.map((r) => r.id), [null, 2, 3, 4, 5, 6, 7]);
  assert.equal(replies[0].error, 'ocrag: a call that is not JSON');
  assert.match(replies[1].error!, /^ocrag: no tool "rm -rf \/"/);
  assert.equal(replies[2].error, 'ocrag: a call needs tool, root and cwd');
  assert.match(replies[3].error!, /^ocrag: not inside a git repository/);
  assert.equal((JSON.parse(replies[4].text!) as { path: string }[])[0].path, 'tools/backup.py');
  assert.match(replies[5].error!, /^ocrag: k: .*50/);
  assert.match(replies[6].error!, /^ocrag: no tool "toString"/);
});
