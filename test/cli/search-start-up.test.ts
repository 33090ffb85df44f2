// What a one-shot `ocrag search` without a server loads: only what a search needs (issue 31). The packages of
// other commands (the chunker's tree-sitter, the glob matcher of `ocrag list`, LanceDB's native binary while the
// resident snapshot is current) cost every search their loading time.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, test } from 'node:test';
import { makeFixtureRepo, runCli, runJson, tempDir } from '../helpers.js';

/**
 * A preload that writes each module the process loads, ES modules by the loader's hook and CommonJS by its compile
 * (the quick entry and the packages it requires), and at exit the native libraries, to `log`. The search itself,
 * search-cold.cjs, is compiled through V8's code cache (util/code-cache.ts), which neither sees: what it requires,
 * each hook does.
 */
function tracingPreload(log: string): string {
  const dir = tempDir('loads');
  const hooks = path.join(dir, 'hooks.mjs');
  fs.writeFileSync(hooks, `import fs from 'node:fs';\nexport async function load(url, context, next) { fs.appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }\n`);
  const preload = path.join(dir, 'preload.mjs');
  fs.writeFileSync(
    preload,
    `import fs from 'node:fs';\nimport { createRequire, register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n` +
      `const Module = createRequire(import.meta.url)('node:module');\nconst compile = Module.prototype._compile;\n` +
      `Module.prototype._compile = function (content, file) { fs.appendFileSync(${JSON.stringify(log)}, file + '\\n'); return compile.call(this, content, file); };\n` +
      `process.on('exit', () => fs.appendFileSync(${JSON.stringify(log)}, [...process.report.getReport().sharedObjects, ...process.moduleLoadList.map((m) => 'node:' + m)].join('\\n') + '\\n'));\n`,
  );
  return preload;
}

describe('a one-shot search loads only what a search needs', () => {
  let repo: string;
  let loaded: string[];

  before(async () => {
    repo = makeFixtureRepo();
    await runJson(['index'], repo);
    // The first search after an index may settle what the run left; the one traced is the common case after it.
    await runCli(['search', 'parse arguments'], repo, { OCRAG_WARM: '0' });
    const log = path.join(tempDir('loads'), 'loaded.txt');
    const r = await runCli(['search', 'parse arguments', '--json'], repo, { OCRAG_WARM: '0', NODE_OPTIONS: `--import=${pathToFileURL(tracingPreload(log)).href}` });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(JSON.parse(r.stdout).length > 0, 'the search answered');
    loaded = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
  });

  test('the trace sees the CLI and its packages (the check works)', () => {
    assert.ok(loaded.some((u) => /\/dist\/cli\/main\.js$/.test(u)), 'main.js in the trace (an ES module)');
    assert.ok(loaded.some((u) => /\/dist\/cli\/quick-search\.cjs$/.test(u)), 'the quick entry in the trace (CommonJS)');
  });

  test("nor Node's modules a search has no use for: fs/promises, performance", () => {
    assert.ok(loaded.includes('node:NativeModule child_process'), 'Node modules in the trace (the check works)');
    for (const name of ['fs/promises', 'perf_hooks']) assert.ok(!loaded.includes(`node:NativeModule ${name}`), `${name} is loaded by a search`);
  });

  test('neither the chunker, nor the glob matcher, nor LanceDB', () => {
    for (const part of ['web-tree-sitter', 'picomatch', 'lancedb']) {
      assert.deepEqual(loaded.filter((u) => u.toLowerCase().includes(part)), [], `${part} is loaded by a search`);
    }
  });
});
