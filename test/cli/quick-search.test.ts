// A plain `ocrag search` runs through its quick entry (src/cli/quick-search.ts, a bundle of its own): it must answer
// byte for byte as the full program (commander) does, asked of a running `ocrag mcp` and in its own process, errors
// and exit codes included, and leave every other command line to the full program. A real repository, its real
// index, a real server, the built CLI; the full program is forced by the test switch `fullProgram`. A fired hook's run
// (src/cli/hook-entry.ts) is a bundle of its own too, checked here by what it loads.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PROJECT_ROOT, runCli, runCommand, tempDir, type CliResult } from '../helpers.js';
import { servedFixture } from '../mcp/mcp-helpers.js';
import { seamEnv } from '../support/seams.js';

/** One run, with the line saying which path answered (`warm <pid>`, `cold <why>`), by the quick entry or the full program. */
async function run(cwd: string, args: string[], full: boolean, env: NodeJS.ProcessEnv = {}): Promise<CliResult & { path: string }> {
  const trace = path.join(tempDir('trace'), 'trace');
  const r = await runCli(args, cwd, { ...seamEnv({ warmTrace: trace, ...(full ? { fullProgram: true } : {}) }), ...env });
  // XML and markdown say how long the search took, which differs between any two runs.
  const stdout = r.stdout.replace(/latencyMs="\d+"/, 'latencyMs="…"').replace(/^(\d+ results? for .*) \(\d+ ms\)$/m, '$1 (… ms)');
  return { ...r, stdout, path: fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').trim() : '' };
}

async function assertAlike(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult & { path: string }> {
  const [quick, full] = [await run(cwd, args, false, env), await run(cwd, args, true, env)];
  const said = `${args.join(' ')} ${JSON.stringify(env)}`;
  assert.equal(quick.code, full.code, said);
  assert.equal(quick.stdout, full.stdout, said);
  assert.equal(quick.stderr, full.stderr, said);
  assert.equal(quick.path, full.path, said);
  return quick;
}

/** The installed command (package.json `bin`). */
const BIN = path.join(PROJECT_ROOT, (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.ocrag);

/**
 * The files of dist/cli/ a command loads, in order: a module-loading hook, CommonJS's compile and V8's script
 * compile (a bundle run through the code cache, util/code-cache.ts) write each to a log.
 */
async function filesLoaded(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}, entry?: string): Promise<string[]> {
  const dir = tempDir('loads');
  const log = path.join(dir, 'loaded.txt');
  const hooks = path.join(dir, 'hooks.mjs');
  fs.writeFileSync(hooks, `import fs from 'node:fs';\nexport async function load(url, context, next) { fs.appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }\n`);
  const preload = path.join(dir, 'preload.mjs');
  fs.writeFileSync(
    preload,
    [
      `import fs from 'node:fs';`,
      `import { createRequire, register } from 'node:module';`,
      `register(${JSON.stringify(pathToFileURL(hooks).href)});`,
      `const Module = createRequire(import.meta.url)('node:module');`,
      `const compile = Module.prototype._compile;`,
      `Module.prototype._compile = function (content, file) { fs.appendFileSync(${JSON.stringify(log)}, file + '\\n'); return compile.call(this, content, file); };`,
      `const vm = createRequire(import.meta.url)('node:vm');`,
      `const Script = vm.Script;`,
      `vm.Script = class extends Script { constructor(code, options) { super(code, options); fs.appendFileSync(${JSON.stringify(log)}, String(options?.filename) + '\\n'); } };`,
    ].join('\n'),
  );
  const withPreload = { ...env, NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` };
  const r = entry ? await runCommand(process.execPath, [entry, ...args], cwd, withPreload) : await runCli(args, cwd, withPreload);
  assert.equal(r.code, 0, r.stderr);
  const files = fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter((u) => u.includes('/dist/'))
    .map((u) => u.slice(u.indexOf('/dist/') + 1));
  return [...new Set(files)];
}

describe('the quick entry of ocrag search', () => {
  let repo: string;
  let client: Client;
  before(async () => {
    ({ repo, client } = await servedFixture());
    for (let i = 0; i < 600 && !(await run(repo, ['search', 'parse'], false)).path.startsWith('warm'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  });
  after(async () => {
    await client?.close();
  });

  it('answers every format and filter as the full program, from the server and in its own process', async () => {
    const asks = [
      ['search', 'parse command line arguments'],
      ['search', '--json', 'parse', 'command', 'line', 'arguments'],
      ['search', '--format', 'xml', '-k', '3', 'retry with backoff'],
      ['search', '--format=markdown', '--whole', 'parse command line arguments'],
      ['search', '--json', '--language', 'python', 'read a file'],
      ['search', '--json', '--path', 'src/**', 'parse arguments'],
      ['search', '--max-tokens', '120', '--json', 'parse command line arguments'],
      ['search', '--max-tokens', '120', 'parse command line arguments'],
      ['search', '-k2', '--min-score', '0.2', '--committed-only', '--no-update', '--no-sources', 'error handling'],
      ['search', '--min-match', '0.99', 'xyzzy frobnicate quux'],
      ['search', '--path', 'docs/**', '--min-match', '0.99', 'xyzzy frobnicate quux'],
      ['-C', repo, 'search', '--json', '解析 命令行 参数'],
    ];
    for (const args of asks) {
      const warm = await assertAlike(repo, args);
      assert.match(warm.path, /^warm \d+$/, args.join(' '));
      const cold = await assertAlike(repo, args, { OCRAG_WARM: '0' });
      assert.equal(cold.path, 'cold refused by OCRAG_WARM', args.join(' '));
      assert.equal(cold.stdout, warm.stdout, args.join(' '));
    }
  });

  it('fails as the full program does: the same line, the same exit code', async () => {
    const elsewhere = tempDir('no-repo');
    const fails: [string, string[], number][] = [
      [repo, ['search', ' '], 2],
      [repo, ['search', '--json', '--format', 'xml', 'parse'], 2],
      [repo, ['search', '--language', '', 'parse'], 2],
      [repo, ['-C', path.join(elsewhere, 'missing'), 'search', 'parse'], 2],
      [repo, ['search', 'x'.repeat(20_000)], 2],
      [elsewhere, ['search', 'parse'], 3],
      [elsewhere, ['-C', repo, 'search', '--language', '', 'parse'], 2],
    ];
    for (const [cwd, args, code] of fails) {
      for (const env of [{}, { OCRAG_WARM: '0' }]) {
        const r = await assertAlike(cwd, args, env);
        assert.equal(r.code, code, `${args.join(' ').slice(0, 80)}: ${r.stderr}`);
        assert.match(r.stderr, /^ocrag: /);
      }
    }
  });

  it('leaves what it does not read to the full program: an unknown flag, help, a global flag after search', async () => {
    const unknown = await run(repo, ['search', '--bogus', 'parse'], false);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown option '--bogus'/);
    const help = await run(repo, ['search', '--help'], false);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: ocrag search/);
    const late = await assertAlike(repo, ['search', '--json', 'parse', '-C', repo]);
    assert.match(late.path, /^warm \d+$/);
  });

  it('loads one file of its own for a warm answer, and no module of the full program for a search in its own process', async () => {
    const warm = await filesLoaded(repo, ['search', 'parse command line arguments']);
    assert.deepEqual(warm, ['dist/cli/main.js', 'dist/cli/quick-search.cjs']);
    // In its own process, the search is search-cold.cjs, compiled through V8's code cache (util/code-cache.ts): no
    // module of the main bundle loads, nor any of the per-module output.
    const cold = await filesLoaded(repo, ['search', 'parse command line arguments'], { OCRAG_WARM: '0' });
    assert.deepEqual(cold, ['dist/cli/main.js', 'dist/cli/quick-search.cjs', 'dist/cli/search-cold.cjs']);
  });

  it('runs a fired hook from its own bundle: nothing of the main bundle loads after hook-run.cjs', async () => {
    // Its way in (cli/hook-entry.ts) falls back to the module silently, so only what loads tells the bundle was used:
    // through the module, a commit's run loaded ~90 files of dist/.
    const files = await filesLoaded(repo, ['hook', 'post-commit']);
    assert.equal(files.at(-1), 'dist/cli/hook-run.cjs', files.join('\n'));
  });

  it('is where the installed command starts a search: two CommonJS files for a warm answer, the same answers, the full program for the rest', async () => {
    assert.deepEqual(await filesLoaded(repo, ['search', 'parse command line arguments'], {}, BIN), ['dist/cli/ocrag.cjs', 'dist/cli/quick-search.cjs']);
    for (const env of [{}, { OCRAG_WARM: '0' }]) {
      const args = ['search', '--json', 'parse command line arguments'];
      const [installed, program] = [await runCommand(process.execPath, [BIN, ...args], repo, env), await runCli(args, repo, env)];
      assert.deepEqual(installed, program, JSON.stringify(env));
    }
    const unknown = await runCommand(process.execPath, [BIN, 'search', '--bogus', 'parse'], repo);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown option '--bogus'/);
    const status = await runCommand(process.execPath, [BIN, 'status', '--json'], repo);
    assert.equal(status.code, 0, status.stderr);
    assert.equal(status.stdout, (await runCli(['status', '--json'], repo)).stdout);
  });
});
