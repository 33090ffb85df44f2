// `ocrag plugin-host` as an editor plugin (or anything that can write to its stdin) drives it: every line gets
// one reply, in order, and a bad line (not JSON, no tool, a tool that does not exist, a folder that is no
// workspace) is a one-line error reply; the host goes on answering. The built CLI, a real repository and model.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { CLI, LONG_QUESTION_WITH_IDENTIFIER, TEST_CACHE, makeFixtureRepo, tempDir, twoLanguageRepo } from '../helpers.js';

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

test('search_code through the plugin: "no good match" for an off-topic question, answers for on-topic and long ones', async () => {
  const repo = makeFixtureRepo();
  const call = (id: number, query: string, extra: Record<string, unknown> = {}) => JSON.stringify({ id, tool: 'search_code', root: repo, cwd: repo, args: { query, k: 3, format: 'json', ...extra } });
  const calls = [
    call(1, 'kubernetes helm chart ingress annotations'),
    call(2, '今天天气怎么样'),
    call(3, 'parse command line arguments'),
    call(4, LONG_QUESTION_WITH_IDENTIFIER),
    call(5, 'kubernetes helm chart ingress annotations', { min_score: 0 }),
    call(6, 'kubernetes helm chart ingress annotations', { path_glob: 'src/**' }),
    call(7, 'kubernetes helm chart ingress annotations', { language: 'typescript' }),
  ];
  const host = spawn(process.execPath, [CLI, 'plugin-host'], { env: { ...process.env, OCRAG_CACHE: TEST_CACHE, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  host.stdout.on('data', (b) => (out += b));
  host.stdin.end(calls.join('\n') + '\n');
  assert.equal(await new Promise((resolve) => host.on('close', resolve)), 0);
  const replies = out.trim().split('\n').map((l) => JSON.parse(l) as { id: number; title?: string; text?: string; error?: string });
  for (const r of replies.slice(0, 2)) {
    assert.match(r.title ?? '', /^no good match for "/, r.error);
    assert.match(r.text ?? '', /^no good match for ".+": nothing in this repository .*an identifier you know \(ocrag_find_symbol finds a definition by its name\), or min_score=0 to see the closest chunks anyway$/);
  }
  assert.equal((JSON.parse(replies[2]!.text!) as { path: string }[])[0]!.path, 'src/cli/args.ts');
  assert.equal((JSON.parse(replies[3]!.text!) as { path: string }[])[0]!.path, 'src/cli/args.ts', 'a long question naming a rare identifier answers');
  assert.equal((JSON.parse(replies[4]!.text!) as unknown[]).length, 3, 'min_score 0 answers with the closest chunks');
  // Narrowed by path_glob, the search judged only the files the glob keeps, and says so.
  assert.match(replies[5]!.text ?? '', /^no good match for ".+": nothing in the files the filter keeps /, replies[5]!.error);
  // Under a language filter the language is kept after ranking: what is said is that none of it was among the best (as over MCP).
  assert.equal(replies[6]!.title, 'no results for "kubernetes helm chart ingress annotations"', replies[6]!.error);
  assert.equal(replies[6]!.text, 'no typescript results among the best matches that match well enough (min_score 0.25); try without language or with path_glob');
});
