// ocrag as a library, the way a script installed beside it uses it: README's example, type-checked against the
// package's published types and run with `ocrag` resolved through package.json "exports" (node_modules/ocrag →
// this project), on a real repository with the real model.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import ts from 'typescript';
import { committedRepo, PROJECT_ROOT, runCommand, tempDir } from './helpers.js';
import { OcragError, openWorkspace } from '../src/workspace/index.js';

const MARKER = '<!-- library-example: test/library.test.ts type-checks and runs this block -->';

/** The fenced block under the marker in README.md. */
function readmeExample(): string {
  const readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(MARKER);
  assert.ok(at >= 0, 'README.md has no library example marker');
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(block, 'no ```ts block follows the marker');
  return block[1];
}

describe('the library (import { openWorkspace } from "ocrag")', () => {
  let consumer: string;
  let repo: string;

  before(() => {
    consumer = tempDir('consumer');
    fs.mkdirSync(path.join(consumer, 'node_modules'));
    fs.symlinkSync(PROJECT_ROOT, path.join(consumer, 'node_modules', 'ocrag'));
    fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
    fs.writeFileSync(path.join(consumer, 'example.ts'), readmeExample());
    repo = committedRepo(path.join(tempDir('lib-repo'), 'uploads'), {
      'upload/retry.py': 'def upload_with_retry(send, attempts=4):\n    """Retries a failed upload with exponential backoff: 1 s, 2 s, 4 s."""\n    for n in range(attempts):\n        if send():\n            return True\n        sleep(2 ** n)\n    return False\n',
      'upload/client.py': 'class Client:\n    def connect(self, host):\n        return socket.create_connection((host, 443))\n',
    }, 'uploads');
  });

  test("README's example type-checks against the package's own types", async () => {
    const tsc = path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--types', 'node', '--typeRoots', path.join(PROJECT_ROOT, 'node_modules', '@types')];
    const r = await runCommand(process.execPath, [tsc, ...flags, path.join(consumer, 'example.ts')], consumer);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  test("README's example runs: the first search indexes the repository and finds the retry loop", async () => {
    const js = ts.transpileModule(readmeExample(), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    fs.writeFileSync(path.join(consumer, 'example.mjs'), js);
    const r = await runCommand(process.execPath, [path.join(consumer, 'example.mjs')], repo);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.match(lines[0], /^upload\/retry\.py:1-7 .*upload_with_retry \(0\.\d\d\)$/, r.stdout);
    assert.match(lines.at(-1)!, /^2 files, \d+ chunks indexed$/, r.stdout);
    assert.match(r.stderr, /index/, 'the first search says it indexes first');
  });

  test('one query union: code by meaning, a symbol by name, code like a location', async () => {
    const workspace = await openWorkspace(repo);
    try {
      const code = await workspace.find({ kind: 'code', text: 'open a TLS connection to a host', k: 1 });
      assert.deepEqual(code.map((r) => r.path), ['upload/client.py']);
      const symbols = await workspace.find({ kind: 'symbol', name: 'Client.connect' });
      assert.deepEqual(symbols.map((d) => [d.result.path, d.match]), [['upload/client.py', 'exact']]);
      const like = await workspace.find({ kind: 'related', path: 'upload/retry.py', startLine: 3, k: 5 });
      assert.equal(like.anchor.symbol, 'function upload_with_retry');
      assert.ok(like.results.every((r) => r.path !== 'upload/retry.py'), 'the anchor is left out');
      await assert.rejects(workspace.related({ path: 'nowhere.py' }), (e: unknown) => e instanceof OcragError && /not in the index/.test(e.message));
    } finally {
      await workspace.close();
    }
  });

  test('a plain folder opened with folder: create is indexed and searched, its .gitignore honoured', async () => {
    const folder = path.join(tempDir('lib-folder'), 'notes');
    fs.mkdirSync(path.join(folder, 'build'), { recursive: true });
    fs.writeFileSync(path.join(folder, '.gitignore'), 'build/\n');
    fs.writeFileSync(path.join(folder, '部署.md'), '# 部署说明\n\n生产环境部署前先备份数据库，然后滚动重启服务。\n');
    fs.writeFileSync(path.join(folder, 'build', 'out.md'), '# 部署说明 (generated)\n\n生产环境部署前先备份数据库。\n');
    const workspace = await openWorkspace(folder, { folder: 'create' });
    try {
      const summary = await workspace.index();
      assert.equal(summary.folder, fs.realpathSync(folder));
      const found = await workspace.search('部署前要做什么', { k: 5 });
      assert.equal(found[0].path, '部署.md');
      assert.match(found[0].text, /备份数据库/);
      assert.ok(!found.some((r) => r.path.startsWith('build/')), found.map((r) => r.path).join(', '));
    } finally {
      await workspace.close();
    }
  });

  test('a failure is an OcragError with its kind and remedy, not an exit code', async () => {
    const script = path.join(consumer, 'failure.mjs');
    fs.writeFileSync(script, "import { openWorkspace, OcragError } from 'ocrag';\ntry { await openWorkspace(process.cwd()); } catch (e) { console.log(JSON.stringify({ ocrag: e instanceof OcragError, kind: e.kind })); }\n");
    const r = await runCommand(process.execPath, [script], tempDir('not-a-repo'));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { ocrag: true, kind: 'no-workspace' });
  });
});
