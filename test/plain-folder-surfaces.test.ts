// A plain folder (no git) works on every surface as a repository does: the MCP server (started for it with --repo,
// set_root to it, every tool, index_codebase with a task id), the index panel, the OpenCode plugin through OpenCode,
// doctor and watch; its .gitignore files and the config's exclude are honoured, and one file or folder can be left
// out with `ocrag remove <path>`. Real folders without git, the real model, LanceDB on disk, real child processes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call, startServer, text, until } from './mcp/mcp-helpers.js';
import { CLI, git, GIT_IDENTITY, runCli, runCommand, runJson, TEST_CACHE, tempDir } from './helpers.js';
import { linkPluginPackage, offlineEnv, OPENCODE } from './setup/opencode-env.js';
import { raw, startUi } from './ui/ui-helpers.js';

interface Listed {
  path: string;
  state: string;
}

function write(root: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
}

/** A knowledge base as people keep one: notes in Chinese and English, a script, build output and logs it ignores. */
function notesFolder(): string {
  const root = path.join(tempDir('plain-surfaces'), 'kb');
  write(root, {
    'notes/部署.md': '# 部署说明\n\n生产环境的部署步骤：先停止旧服务，再用 deploy.sh 发布新版本，最后检查健康接口。\n',
    'notes/retention.md': '# Kafka retention\n\nTopics keep messages for seven days; compacted topics keep the latest value per key.\n',
    'tools/rotate.py': 'def rotate_logs(folder, keep=7):\n    """Delete log files older than keep days."""\n    return [f for f in folder if f.age <= keep]\n',
    '.gitignore': 'build/\n*.log\n',
    'build/rotate.py': 'def rotate_logs(folder, keep=7):\n    return []  # a stale build copy\n',
    'debug.log': 'rotate_logs failed: permission denied\n',
    'drafts/.gitignore': 'secret-*.md\n',
    'drafts/secret-plan.md': '# plan nobody should index\n',
    'drafts/outline.md': '# Outline of the retention talk\n',
  });
  // A repository cloned inside the folder: its files are what its own git shows.
  const inner = path.join(root, 'vendor', 'lib');
  write(inner, { 'lib.py': 'def parse_retention(text):\n    return int(text.rstrip("d"))\n', '.gitignore': 'dist/\n', 'dist/lib.min.js': 'x' });
  git(inner, 'init', '-q');
  return root;
}

const listed = async (dir: string) => (await runJson<Listed[]>(['list', '--json'], dir)).filter((f) => f.state !== 'skipped').map((f) => f.path);

describe('a plain folder on every surface', () => {
  let kb: string;
  before(async () => {
    kb = notesFolder();
    assert.equal((await runCli(['index'], kb)).code, 0);
  });

  test('its .gitignore files, the global rules of a repository inside it and the config exclude are honoured', async () => {
    const files = await listed(kb);
    for (const kept of ['notes/部署.md', 'tools/rotate.py', 'drafts/outline.md', 'vendor/lib/lib.py', '.gitignore']) assert.ok(files.includes(kept), `${kept} in ${files.join(', ')}`);
    for (const ignored of ['build/rotate.py', 'debug.log', 'drafts/secret-plan.md', 'vendor/lib/dist/lib.min.js']) assert.ok(!files.includes(ignored), ignored);
    assert.ok(!files.some((f) => f.startsWith('.ocrag/')));
    const hits = await runJson<{ path: string }[]>(['search', 'delete old log files', '-k', '3'], kb);
    assert.equal(hits[0].path, 'tools/rotate.py');
    assert.ok(!hits.some((h) => h.path.startsWith('build/')));
  });

  test('ocrag remove <path> leaves one file, or a folder, out from then on; from a subfolder and through a linked path', async () => {
    const folder = path.join(tempDir('plain-remove'), 'kb');
    fs.cpSync(kb, folder, { recursive: true });
    fs.rmSync(path.join(folder, '.ocrag'), { recursive: true });
    assert.equal((await runCli(['index'], folder)).code, 0);
    const linked = path.join(path.dirname(folder), 'linked');
    fs.symlinkSync(folder, linked);
    const one = await runJson<{ excluded: string; glob: string; added: boolean }>(['remove', 'retention.md', '--json'], path.join(linked, 'notes'));
    assert.deepEqual([one.excluded, one.glob, one.added], ['notes/retention.md', 'notes/retention.md', true]);
    const again = await runCli(['remove', 'notes/retention.md'], folder);
    assert.match(again.stderr, /already excluded: notes\/retention\.md/);
    const dir = await runCli(['remove', 'drafts'], folder);
    assert.equal(dir.code, 0, dir.stderr);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(folder, '.ocrag', 'config.json'), 'utf8')).exclude, ['notes/retention.md', 'drafts/**']);
    const files = await listed(folder);
    assert.ok(!files.includes('notes/retention.md') && !files.includes('drafts/outline.md'), files.join(', '));
    assert.ok(files.includes('notes/部署.md'));
    const hits = await runJson<{ path: string }[]>(['search', 'how long do topics keep messages', '-k', '5'], folder);
    assert.ok(!hits.some((h) => h.path === 'notes/retention.md'), JSON.stringify(hits.map((h) => h.path)));
    const outside = await runCli(['remove', path.join(path.dirname(folder), 'elsewhere.md')], folder);
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /no source/);
  });

  test('MCP started for a new folder with --repo: index_codebase with a task id, every tool, set_root and back', async () => {
    const fresh = notesFolder();
    const other = kb;
    const client = await startServer(path.dirname(fresh), ['--repo', fresh]);
    try {
      const started = await call(client, 'index_codebase', {});
      assert.ok(!started.isError, text(started));
      const id = (started.structuredContent as { task: { id: string } }).task.id;
      await until('the task to end', async () => {
        const r = await call(client, 'index_status', { task_id: id });
        const state = (r.structuredContent as { task: { state: string } }).task.state;
        return state === 'running' ? null : state;
      }).then((state) => assert.equal(state, 'done'));
      const status = await call(client, 'index_status', {});
      assert.equal((status.structuredContent as { plainFolder: boolean }).plainFolder, true);
      assert.match(text(status), /plain folder/);
      const search = await call(client, 'search_code', { query: '生产环境怎么部署新版本', k: 3 });
      assert.ok(!search.isError, text(search));
      assert.equal((search.structuredContent as { results: { path: string }[] }).results[0].path, 'notes/部署.md');
      const symbol = await call(client, 'find_symbol', { name: 'rotate_logs' });
      assert.deepEqual((symbol.structuredContent as { results: { path: string }[] }).results.map((r) => r.path), ['tools/rotate.py']);
      const related = await call(client, 'related', { path: 'tools/rotate.py' });
      assert.ok(!related.isError, text(related));
      const switched = await call(client, 'set_root', { path: other });
      assert.ok(!switched.isError, text(switched));
      const there = await call(client, 'search_code', { query: 'delete old log files', k: 1 });
      assert.equal((there.structuredContent as { results: { path: string }[] }).results[0].path, 'tools/rotate.py');
      assert.ok(!(await call(client, 'set_root', { path: fresh })).isError);
    } finally {
      await client.close();
    }
  });

  test('MCP started in a folder nobody indexed: says how to serve it, and writes nothing there', async () => {
    const stray = path.join(tempDir('plain-stray'), 'home');
    write(stray, { '.bash_history': 'aws configure\n', 'notes.txt': 'hello\n' });
    const client = await startServer(stray);
    try {
      for (const [tool, args] of [['search_code', { query: 'aws' }], ['index_codebase', {}]] as const) {
        const r = await call(client, tool, args);
        assert.ok(r.isError, tool);
        assert.match(text(r), /pass --repo <dir>/);
        assert.doesNotMatch(text(r), /call index_codebase/);
      }
      assert.ok(!fs.existsSync(path.join(stray, '.ocrag')));
    } finally {
      await client.close();
    }
  });

  test('the panel serves it: state, search and doctor', async () => {
    const ui = await startUi(kb);
    try {
      const own = { host: `127.0.0.1:${ui.port}`, 'x-ocrag-token': ui.token };
      const state = JSON.parse((await raw(ui.port, 'GET', '/api/state', own)).body) as { plainFolder: boolean; upToDate: boolean; error: string | null };
      assert.deepEqual([state.plainFolder, state.upToDate, state.error], [true, true, null]);
      const found = JSON.parse((await raw(ui.port, 'GET', `/api/search?q=${encodeURIComponent('部署步骤')}`, own)).body) as { results: { path: string }[] };
      assert.equal(found.results[0].path, 'notes/部署.md');
      const doctor = JSON.parse((await raw(ui.port, 'GET', '/api/doctor', own)).body) as { name: string; status: string }[];
      assert.deepEqual(doctor.filter((c) => c.status === 'fail'), []);
      assert.ok(doctor.some((c) => c.name === 'index' && c.status === 'ok'));
    } finally {
      await ui.stop();
    }
  });

  test('ocrag watch embeds a note as it is saved', async () => {
    const folder = notesFolder();
    assert.equal((await runCli(['index'], folder)).code, 0);
    const child = spawn(process.execPath, [CLI, 'watch'], { cwd: folder, env: { ...process.env, OCRAG_CACHE: TEST_CACHE, ...GIT_IDENTITY }, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (b) => (log += b));
    after(() => void child.kill());
    await until('watch to start', async () => (/index current/.test(log) ? true : null));
    const before = (await runJson<{ files: number }>(['status', '--json'], folder)).files;
    write(folder, { 'notes/zookeeper.md': '# ZooKeeper quorum\n\nA write commits once a majority of the ensemble acknowledged it.\n' });
    await until('the note to be indexed', async () => ((log.match(/index current/g) ?? []).length >= 2 ? true : null));
    child.kill();
    // status reads the folder's last scan, which only watch has made since the note was saved (a search scans again).
    assert.equal((await runJson<{ files: number }>(['status', '--json'], folder)).files, before + 1);
    const hits = await runJson<{ path: string }[]>(['search', 'when does a write commit in the ensemble', '-k', '1', '--no-update'], folder);
    assert.equal(hits[0].path, 'notes/zookeeper.md');
  });

  test('OpenCode set up in the folder runs ocrag_search_code there', async (t) => {
    const env = offlineEnv();
    const version = await runCommand(OPENCODE, ['--version'], kb, env).catch(() => null);
    if (!version || version.code !== 0) return t.skip(`opencode cannot start here: ${version?.stderr.trim() ?? 'not installed'}`);
    const folder = path.join(tempDir('plain-opencode'), 'kb');
    fs.cpSync(kb, folder, { recursive: true });
    fs.rmSync(path.join(folder, '.ocrag'), { recursive: true });
    const setup = await runCli(['setup', 'opencode'], folder);
    assert.equal(setup.code, 0, setup.stderr);
    assert.match(setup.stderr, /plain folder \(no git\): run "ocrag index" there once/);
    assert.equal((await runCli(['index'], folder)).code, 0);
    linkPluginPackage(folder);
    const run = await runCommand(OPENCODE, ['debug', 'agent', 'build', '--tool', 'ocrag_search_code', '--params', JSON.stringify({ query: '生产环境部署步骤', k: 1 })], folder, env);
    assert.equal(run.code, 0, run.stderr);
    assert.match((JSON.parse(run.stdout) as { result: { output: string } }).result.output, /notes\/部署\.md/);
  });
});
