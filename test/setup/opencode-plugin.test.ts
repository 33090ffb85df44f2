import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, test } from 'node:test';
import { PROJECT_ROOT, runCli, runCommand, TEST_CACHE, tempDir, twoLanguageRepo } from '../helpers.js';
import { startServer } from '../mcp/mcp-helpers.js';
import { linkPluginPackage, offlineEnv, OPENCODE } from './opencode-env.js';
import { surfaceTools, TOOLS } from '../../src/render/contract/tools.js';
import { MAX_QUERY_CHARS } from '../../src/search/query-limit.js';

/** The plugin's tool names, as the contract gives them for OpenCode: one tool per job. */
const PLUGIN_TOOLS = surfaceTools('opencode').map((t) => t.name).sort();

interface Tool {
  description: string;
  args: Record<string, unknown>;
  execute(args: Record<string, unknown>, ctx: Record<string, unknown>): Promise<{ title: string; output: string }>;
}

describe('the OpenCode plugin', () => {
  let repo: string;
  let tools: Record<string, Tool>;
  let docs: string;
  const ctx = () => ({ sessionID: 's', messageID: 'm', agent: 'build', directory: repo, worktree: repo, abort: new AbortController().signal, metadata: () => undefined, ask: async () => undefined });
  /** A tool's output as the agent reads it; every answer also has a title for OpenCode to show. */
  const run = async (name: string, args: Record<string, unknown>, context: Record<string, unknown> = ctx()): Promise<string> => {
    const { title, output } = await tools[name].execute(args, context);
    assert.ok(typeof title === 'string' && title.trim().length > 0 && !title.includes('\n'), `${name} has a one-line title: ${JSON.stringify(title)}`);
    return output;
  };

  before(async () => {
    repo = twoLanguageRepo();
    const r = await runCli(['setup', 'opencode'], repo);
    assert.equal(r.code, 0, r.stderr);
    linkPluginPackage(repo);
    docs = path.join(tempDir('docs'), 'design');
    fs.mkdirSync(docs);
    fs.writeFileSync(path.join(docs, 'retries.md'), '# Retry policy\n\nFailed uploads are retried with exponential backoff: 1 s, 2 s, 4 s, then the job gives up.\n');
    // The plugin's ocrag runs with the plugin's environment: this test's model cache.
    process.env.OCRAG_CACHE = TEST_CACHE;
    // Bun (OpenCode) loads the .ts as an ES module; Node 20 takes a .ts outside a "type": "module" package for
    // CommonJS, which cannot import the ESM-only plugin package: the same bytes as .mts load as OpenCode loads them.
    const written = path.join(repo, '.opencode', 'plugin', 'ocrag.ts');
    const asModule = path.join(tempDir('plugin-load'), 'ocrag.mts');
    fs.copyFileSync(written, asModule);
    fs.symlinkSync(path.join(repo, '.opencode', 'node_modules'), path.join(path.dirname(asModule), 'node_modules'));
    const plugin = (await import(pathToFileURL(asModule).href)) as Record<string, (input: unknown) => Promise<{ tool: Record<string, Tool> }>>;
    const hooks = await plugin.OcragPlugin({ directory: repo, worktree: repo, project: {}, client: {}, $: undefined, serverUrl: new URL('http://127.0.0.1:1') });
    tools = hooks.tool;
  });

  test('is written once, with the contract\'s tools, their zod arguments and the skill that says when to use them', async () => {
    assert.deepEqual(Object.keys(tools).sort(), PLUGIN_TOOLS);
    assert.deepEqual(PLUGIN_TOOLS, ['ocrag_add_source', 'ocrag_find_symbol', 'ocrag_index_status', 'ocrag_list_sources', 'ocrag_related', 'ocrag_remove_source', 'ocrag_search_code']);
    const { tool } = await import('@opencode-ai/plugin');
    const search = tool.schema.object(tools.ocrag_search_code.args as never);
    assert.equal(search.safeParse({ query: 'x', k: 3, path_glob: 'src/**', language: 'python', format: 'xml', max_tokens: 500, min_score: 0, whole: true }).success, true);
    assert.equal(search.safeParse({ query: 'x', format: 'yaml' }).success, false);
    assert.equal(search.safeParse({ query: '' }).success, false);
    assert.equal(search.safeParse({ query: 'x'.repeat(MAX_QUERY_CHARS) }).success, true, 'a pasted stack trace of 10,000 characters');
    assert.equal(search.safeParse({ query: 'x'.repeat(MAX_QUERY_CHARS + 1) }).success, false);
    const skill = fs.readFileSync(path.join(repo, '.opencode/skills/ocrag/SKILL.md'), 'utf8');
    for (const name of Object.keys(tools)) assert.match(skill, new RegExp(`\`${name}\``));
    assert.deepEqual([...new Set(skill.match(/\bocrag_\w+/g))].filter((n) => n !== 'ocrag_').sort(), PLUGIN_TOOLS, 'the skill names only tools the plugin has');
    const again = await runCli(['setup', 'opencode'], repo);
    assert.equal(again.stderr.match(/unchanged/g)?.length, 2, again.stderr);
  });

  test('each tool takes the arguments of the MCP tool of the same job, with the same bounds, defaults and descriptions', async () => {
    const { tool } = await import('@opencode-ai/plugin');
    const schema = tool.schema as unknown as { object(shape: unknown): unknown; toJSONSchema(s: unknown): { properties: Record<string, unknown> } };
    const client = await startServer(repo);
    try {
      const mcp = new Map((await client.listTools()).tools.map((t) => [t.name, t.inputSchema.properties ?? {}]));
      for (const { id, name } of surfaceTools('opencode')) {
        const ours = schema.toJSONSchema(schema.object(tools[name].args)).properties;
        const theirs = mcp.get(id);
        assert.ok(theirs, `the MCP server has ${id}`);
        // Apart from the few the contract gives one surface (MCP's root and task ids, the plugin's format).
        const only = (surface: string) => Object.entries(TOOLS[id].args as Record<string, { only?: string }>).filter(([, a]) => a.only === surface).map(([a]) => a);
        assert.deepEqual(Object.keys(ours).filter((a) => !only('opencode').includes(a)).sort(), Object.keys(theirs).filter((a) => !only('mcp').includes(a)).sort(), name);
        for (const arg of Object.keys(ours).filter((a) => a in theirs)) {
          const description = (s: unknown) => (s as { description: string }).description.replace(/\bocrag_(\w+)/g, '$1');
          assert.deepEqual({ ...(ours[arg] as object), description: description(ours[arg]) }, { ...(theirs[arg] as object), description: description(theirs[arg]) }, `${name}.${arg}`);
        }
      }
    } finally {
      await client.close();
    }
  });

  test('type-checks strictly against the package\'s own types', async () => {
    const tsc = path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--types', 'node', '--typeRoots', path.join(PROJECT_ROOT, 'node_modules', '@types')];
    const r = await runCommand(process.execPath, [tsc, ...flags, path.join(repo, '.opencode', 'plugin', 'ocrag.ts')], repo);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  test('ocrag_search_code returns the CLI\'s markdown, narrowed by path and language; json and xml on request, within a token budget', async () => {
    const text = await run('ocrag_search_code', { query: 'copy the database file to a dated backup', k: 2 });
    assert.match(text, /^### `tools\/backup\.py:1-3` · `[^`]*backup_database`/m, text);
    assert.match(text, /```python\ndef backup_database/);
    const python = await run('ocrag_search_code', { query: 'cache lookup by key', k: 5, language: 'python' });
    assert.ok(!/\.ts:/.test(python), python);
    const json = JSON.parse(await run('ocrag_search_code', { query: 'split a path into route segments', k: 1, path_glob: 'src/**', format: 'json' })) as { path: string }[];
    assert.deepEqual(json.map((r) => r.path), ['src/router.ts']);
    assert.match(await run('ocrag_search_code', { query: 'split a path into route segments', k: 1, format: 'xml' }), /^<results [^>]*>\s*<result path="src\/router\.ts"/m);
    const budget = await run('ocrag_search_code', { query: 'copy the database file to a dated backup', k: 10, max_tokens: 100 });
    assert.match(budget, /left out|dropped|cut/i, budget);
    const titled = await tools.ocrag_search_code.execute({ query: 'copy the database file to a dated backup', k: 2 }, ctx());
    assert.equal(titled.title, '2 results for "copy the database file to a dated backup"');
    const dashed = await run('ocrag_search_code', { query: '--help', k: 1, min_score: 0 });
    assert.doesNotMatch(dashed, /Usage:/, 'a query that looks like a flag is searched, not parsed');
  });

  test('ocrag_find_symbol and ocrag_related answer as their MCP tools do, each with a title', async () => {
    const symbol = await tools.ocrag_find_symbol.execute({ name: 'backup_database' }, ctx());
    assert.match(symbol.title, /^1 definition named like "backup_database"$/);
    assert.match(symbol.output, /tools\/backup\.py:1-3/);
    const related = await tools.ocrag_related.execute({ path: 'tools/backup.py', k: 3 }, ctx());
    assert.match(related.title, /^\d+ results? related to tools\/backup\.py:1-3$/);
    assert.doesNotMatch(related.output, /^### `tools\/backup\.py:1-3`/m, 'the anchor itself is left out');
  });

  test('ocrag_add_source adds only under sourceRoots (the MCP rule), ocrag_list_sources and ocrag_index_status show it, ocrag_remove_source takes it out', async () => {
    await assert.rejects(tools.ocrag_add_source.execute({ path: docs, name: 'design' }, ctx()), (e: Error) => /^ocrag: agents may add sources only under the folders the user allows.*"sourceRoots":\[/.test(e.message) && !e.message.includes('\n'));
    fs.mkdirSync(path.join(repo, '.ocrag'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.ocrag', 'config.json'), JSON.stringify({ sourceRoots: [path.dirname(docs)] }));
    const added = await run('ocrag_add_source', { path: docs, name: 'design' });
    assert.match(added, /added source "design" .*: 1 files indexed/);
    const found = await run('ocrag_search_code', { query: 'how are failed uploads retried', k: 3 });
    assert.match(found, /design:retries\.md/);
    assert.match(await run('ocrag_list_sources', {}), new RegExp(`^design: ${docs.replace(/[/\\.]/g, '\\$&')}$`, 'm'));
    assert.match((await tools.ocrag_index_status.execute({}, ctx())).title, /^main @ [0-9a-f]{8}, up to date: \d+ files, \d+ chunks$/);
    const status = await run('ocrag_index_status', {});
    assert.match(status, /^checked out main @ [0-9a-f]{8}$/m);
    assert.match(status, /up to date/);
    const removed = await run('ocrag_remove_source', { source: 'design' });
    assert.match(removed, /removed source "design"/);
    const after = await run('ocrag_search_code', { query: 'how are failed uploads retried', k: 3, min_score: 0 });
    assert.doesNotMatch(after, /design:/);
  });

  test('errors come back as one line', async () => {
    await assert.rejects(tools.ocrag_remove_source.execute({ source: 'nothing-like-it' }, ctx()), (e: Error) => /^ocrag: no source ".*nothing-like-it": none was added$/.test(e.message) && !e.message.includes('\n'));
    await assert.rejects(tools.ocrag_search_code.execute({ query: 'x', k: 3 }, { ...ctx(), directory: tempDir('not-a-repo'), worktree: tempDir('not-a-repo') }), (e: Error) => /^ocrag: .*git/i.test(e.message) && !e.message.includes('\n'));
    await assert.rejects(tools.ocrag_search_code.execute({ query: 'x', path_glob: 'nonexistent/**' }, ctx()), (e: Error) => /^ocrag: no file matches the path glob "nonexistent\/\*\*"/.test(e.message) && !e.message.includes('\n'));
    await assert.rejects(tools.ocrag_search_code.execute({ query: 'x', language: 'kotlin' }, ctx()), (e: Error) => /^ocrag: no kotlin file among the \d+ files: the languages here are .*python \(2\)/.test(e.message));
  });

  test('one long-lived ocrag answers every call, sees settings changed between calls, and is started again when it dies', async () => {
    const hosts = () => execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' }).split('\n').filter((l) => l.includes('plugin-host'));
    for (let i = 0; i < 3; i++) await run('ocrag_search_code', { query: 'lookup by key', k: 1 });
    assert.equal(hosts().length, 1, hosts().join('\n'));
    // A file excluded (by the user, through the CLI) between two calls is gone from the next answer: each call sees the settings of its moment.
    assert.match(await run('ocrag_search_code', { query: 'render report rows', k: 4 }), /tools\/report\.py/);
    assert.equal((await runCli(['remove', 'tools/report.py'], repo)).code, 0);
    assert.doesNotMatch(await run('ocrag_search_code', { query: 'render report rows', k: 4, min_score: 0 }), /tools\/report\.py/);
    const [pid] = hosts()[0].trim().split(/\s+/);
    process.kill(Number(pid), 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.match(await run('ocrag_search_code', { query: 'copy the database file to a dated backup', k: 1 }), /tools\/backup\.py/);
    assert.equal(hosts().length, 1, hosts().join('\n'));
  });

  test('setup --remove deletes the plugin and the skill', async () => {
    const copy = twoLanguageRepo();
    await runCli(['setup', 'opencode'], copy);
    const r = await runCli(['setup', 'opencode', '--remove'], copy);
    assert.equal(r.code, 0, r.stderr);
    for (const file of ['opencode.json', '.opencode/plugin/ocrag.ts', '.opencode/skills/ocrag/SKILL.md']) assert.ok(!fs.existsSync(path.join(copy, file)), file);
    assert.ok(!fs.existsSync(path.join(copy, '.opencode')), 'the folders setup made go when empty');
  });
});

describe('OpenCode itself', () => {
  test('discovers the skill and one ocrag tool per job (no MCP server beside the plugin, even after an earlier setup registered one), and runs them with titles', async (t) => {
    const env = offlineEnv();
    const version = await runCommand(OPENCODE, ['--version'], PROJECT_ROOT, env).catch(() => null);
    if (!version || version.code !== 0) return t.skip(`opencode cannot start here: ${version?.stderr.trim() ?? 'not installed'}`);
    const repo = twoLanguageRepo();
    // What an earlier setup wrote: the MCP server registered for OpenCode, whose tools (ocrag_search_code, ocrag_index_codebase, …) would sit beside the plugin's.
    fs.writeFileSync(path.join(repo, 'opencode.json'), JSON.stringify({ $schema: 'https://opencode.ai/config.json', mcp: { ocrag: { type: 'local', command: [process.execPath, path.join(PROJECT_ROOT, 'dist/cli/main.js'), 'mcp'], enabled: true } } }));
    assert.equal((await runCli(['setup', 'opencode'], repo)).code, 0);
    linkPluginPackage(repo);
    const skills = await runCommand(OPENCODE, ['debug', 'skill'], repo, env);
    assert.equal(skills.code, 0, skills.stderr);
    const ocrag = (JSON.parse(skills.stdout) as { name: string; location: string; content: string }[]).find((s) => s.name === 'ocrag');
    assert.ok(ocrag, skills.stdout.slice(0, 500));
    assert.equal(ocrag.location, path.join(fs.realpathSync(repo), '.opencode/skills/ocrag/SKILL.md'));
    assert.match(ocrag.content, /`ocrag_search_code`/);
    const agent = await runCommand(OPENCODE, ['debug', 'agent', 'build'], repo, env);
    assert.equal(agent.code, 0, agent.stderr);
    const listed = (JSON.parse(agent.stdout) as { tools: Record<string, boolean> }).tools;
    assert.deepEqual(Object.keys(listed).filter((name) => name.startsWith('ocrag')).sort(), PLUGIN_TOOLS, JSON.stringify(listed));
    for (const name of PLUGIN_TOOLS) assert.equal(listed[name], true, name);
    const call = async (tool: string, params: Record<string, unknown>) => {
      const r = await runCommand(OPENCODE, ['debug', 'agent', 'build', '--tool', tool, '--params', JSON.stringify(params)], repo, env);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { result: { output: string; title?: string } }).result;
    };
    const search = await call('ocrag_search_code', { query: 'copy the database file to a dated backup', k: 1 });
    assert.match(search.output, /tools\/backup\.py:1-3/);
    assert.equal(search.title, '1 result for "copy the database file to a dated backup"', 'the call shows a title');
    const status = await call('ocrag_index_status', {});
    assert.match(status.title ?? '', /^main @ [0-9a-f]{8}, up to date: \d+ files, \d+ chunks$/);
  });
});
